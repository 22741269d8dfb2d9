#include "exec/core/like_pattern.h"

#include <cstring>

#include "exec/core/expression_evaluator.h"

namespace raydb::exec {

namespace {
// The longest run of literal characters of `p`, read as like_match reads it: % and _
// end a run, a backslash makes the next character literal (a last backslash is itself).
std::string longest_literal(std::string_view p) {
  std::string best, run;
  for (size_t i = 0; i < p.size(); i++) {
    if (p[i] == '%' || p[i] == '_') {
      if (run.size() > best.size()) best = run;
      run.clear();
      continue;
    }
    if (p[i] == '\\' && i + 1 < p.size()) i++;
    run += p[i];
  }
  return run.size() > best.size() ? run : best;
}
}  // namespace

LikePattern::LikePattern(std::string pattern) : pattern_(std::move(pattern)), required_(longest_literal(pattern_)) {
  pieces_only_ = true;
  for (char c : pattern_)
    if (c == '_' || c == '\\' || static_cast<unsigned char>(c) >= 0x80) pieces_only_ = false;
  if (!pieces_only_) return;
  const std::string_view p = pattern_;
  const size_t first = p.find('%');
  has_percent_ = first != std::string_view::npos;
  if (!has_percent_) return;
  const size_t last = p.rfind('%');
  head_ = p.substr(0, first);
  tail_ = p.substr(last + 1);
  for (size_t pi = first + 1; pi < last;) {
    const size_t next = p.find('%', pi);
    if (next > pi) middle_.emplace_back(p.substr(pi, next - pi));
    pi = next + 1;
  }
}

bool LikePattern::matches(std::string_view s) const {
  if (!pieces_only_) return like_match(s, pattern_);
  if (!has_percent_) return s == pattern_;
  if (s.size() < head_.size() + tail_.size() || !s.starts_with(head_) || !s.ends_with(tail_)) return false;
  const char* at = s.data() + head_.size();
  const char* end = s.data() + s.size() - tail_.size();
  for (const std::string& piece : middle_) {
    const void* found = memmem(at, size_t(end - at), piece.data(), piece.size());
    if (!found) return false;
    at = static_cast<const char*>(found) + piece.size();
  }
  return true;
}

}  // namespace raydb::exec
