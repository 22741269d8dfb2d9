#include "exec/core/dictionary_like_scan.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "exec/core/literal_search.h"

namespace raydb::exec {

namespace {

constexpr uint32_t kMinBlockCodes = 1 << 14;  // below this a block's start costs more than it saves

// Appends [lo, hi] to `out`, joining it to an adjacent last range.
void add_range(CodeRanges& out, int64_t lo, int64_t hi) {
  if (lo > hi) return;
  if (!out.empty() && out.back().second + 1 == lo)
    out.back().second = hi;
  else
    out.push_back({lo, hi});
}

// The codes in [lo, hi) whose entry `like` matches, ascending. With a required literal
// only the entries holding it are tested: find_literal runs over the block's bytes, and a
// find that crosses an entry's end means that entry has no occurrence (the find is the
// leftmost from the entry's start, and any later one crosses too), so the search goes
// on from the next entry.
std::vector<uint32_t> matching_codes(const Dictionary& dict, const LikePattern& like, uint32_t lo, uint32_t hi) {
  std::vector<uint32_t> hits;
  const std::string& lit = like.required_literal();
  if (lit.empty()) {
    for (uint32_t c = lo; c < hi; c++)
      if (like.matches(dict.at(c))) hits.push_back(c);
    return hits;
  }
  const char* chars = dict.chars().data();
  const Dictionary::Offsets off = dict.offsets();
  const uint64_t end = off[hi];
  uint64_t at = off[lo];
  uint32_t c = lo;  // at == off[c]
  while (at < end) {
    const char* found = find_literal(chars + at, size_t(end - at), lit);
    if (!found) break;
    const uint64_t pos = uint64_t(found - chars);
    if (pos >= off[c + 1])  // the entry holding pos: the last one starting at or before it
      c = uint32_t(std::upper_bound(off.begin() + c, off.begin() + hi + 1, pos) - off.begin() - 1);
    if (pos + lit.size() <= off[c + 1] && like.matches(dict.at(c))) hits.push_back(c);
    at = off[++c];
  }
  return hits;
}

// The codes of [lo, hi) that match (negated: that do not), as ranges.
CodeRanges block_ranges(const Dictionary& dict, const LikePattern& like, bool negated, uint32_t lo, uint32_t hi) {
  const std::vector<uint32_t> hits = matching_codes(dict, like, lo, hi);
  CodeRanges out;
  if (!negated) {
    for (uint32_t h : hits) add_range(out, h, h);
    return out;
  }
  int64_t next = lo;
  for (uint32_t h : hits) {
    add_range(out, next, int64_t(h) - 1);
    next = int64_t(h) + 1;
  }
  add_range(out, next, int64_t(hi) - 1);
  return out;
}

}  // namespace

CodeRanges dictionary_like_ranges(const Dictionary& dict, const LikePattern& like, bool negated, int blocks) {
  const uint32_t n = dict.size();
  if (blocks <= 0) blocks = int(std::clamp<uint32_t>(n / kMinBlockCodes, 1, uint32_t(4 * omp_get_max_threads())));
  blocks = int(std::clamp<int64_t>(blocks, 1, std::max<int64_t>(n, 1)));
  std::vector<CodeRanges> parts(static_cast<size_t>(blocks));
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
  for (int b = 0; b < blocks; b++) {
    const uint32_t lo = uint32_t(uint64_t(n) * uint64_t(b) / uint64_t(blocks));
    const uint32_t hi = uint32_t(uint64_t(n) * uint64_t(b + 1) / uint64_t(blocks));
    parts[size_t(b)] = block_ranges(dict, like, negated, lo, hi);
  }
  CodeRanges out;
  for (const CodeRanges& p : parts)
    for (const auto& [lo, hi] : p) add_range(out, lo, hi);
  return out;
}

}  // namespace raydb::exec
