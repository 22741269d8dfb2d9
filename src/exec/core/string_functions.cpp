// String functions producing or reading VARCHAR values at run time. Inputs are
// dictionary codes (kCode) or views (kString); results are views into an arena the
// result vector owns, or, where the result is a substring of the input, views into
// the input's own storage (its dictionary or arenas, kept alive through `owners`).
// Positions and lengths count UTF-8 characters, as PostgreSQL does.
#include <algorithm>
#include <limits>

#include "common/error.h"
#include "exec/core/scalar_functions.h"
#include "common/utf8_text.h"

namespace raydb::exec {

using plan::ScalarFunc;

namespace {

// PostgreSQL's substring window: characters [start, start + count) clipped to the
// string (start may be below 1); no count means to the end.
std::string_view substr(const plan::Expr& e, std::string_view s, int64_t start, bool has_count, int64_t count) {
  if (has_count && count < 0) fail(ErrorKind::kExecution, "negative substring length not allowed in {}", e.to_string());
  const __int128 end = has_count ? __int128(start) + count : std::numeric_limits<__int128>::max();
  const __int128 first = std::max<__int128>(start, 1);
  if (end <= first) return {};
  const size_t b = utf8::offset_of(s, uint64_t(std::min<__int128>(first - 1, UINT64_MAX / 2)));
  if (!has_count || end - first >= __int128(s.size())) return s.substr(b);
  const size_t len = utf8::offset_of(s.substr(b), uint64_t(end - first));
  return s.substr(b, len);
}

// The characters of `set`, each as its bytes, for trim.
std::vector<std::string_view> characters(std::string_view set) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < set.size();) {
    const size_t len = std::min(utf8::char_bytes(static_cast<unsigned char>(set[i])), set.size() - i);
    out.push_back(set.substr(i, len));
    i += len;
  }
  return out;
}

std::string_view trim(std::string_view s, std::string_view set, bool left, bool right) {
  const auto chars = characters(set);
  auto starts_with_one = [&](std::string_view t) -> size_t {
    for (auto c : chars)
      if (t.substr(0, c.size()) == c) return c.size();
    return 0;
  };
  auto ends_with_one = [&](std::string_view t) -> size_t {
    for (auto c : chars)
      if (t.size() >= c.size() && t.substr(t.size() - c.size()) == c) return c.size();
    return 0;
  };
  if (left)
    while (size_t k = starts_with_one(s)) s.remove_prefix(k);
  if (right)
    while (size_t k = ends_with_one(s)) s.remove_suffix(k);
  return s;
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(s);
  std::string out;
  size_t pos = 0;
  for (size_t hit; (hit = s.find(from, pos)) != std::string_view::npos; pos = hit + from.size()) {
    out.append(s.substr(pos, hit - pos));
    out.append(to);
  }
  out.append(s.substr(pos));
  return out;
}

// Keeps the storage of `v`'s strings alive in `r` (results that view into them).
void share_storage(Vector& r, Vector& v) {
  if (v.kind == VectorKind::kCode) return;  // dictionaries live as long as the query's tables
  r.owners.insert(r.owners.end(), v.owners.begin(), v.owners.end());
}

Vector integer_result(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  Vector r(e.type, n);
  r.nulls = strict_nulls(args, n);
  for (size_t i = 0; i < n; i++) {
    if (r.is_null(i)) continue;
    const std::string_view s = args[0].string_at(i);
    if (e.func == ScalarFunc::kLength) {
      r.ints[i] = int64_t(utf8::length(s));
    } else {  // strpos
      const size_t hit = s.find(args[1].string_at(i));
      r.ints[i] = hit == std::string_view::npos ? 0 : int64_t(utf8::length(s.substr(0, hit))) + 1;
    }
  }
  return r;
}

}  // namespace

Vector string_function(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  if (e.func == ScalarFunc::kLength || e.func == ScalarFunc::kStrpos) return integer_result(e, args, n);
  Vector r(e.type, n);
  if (e.func != ScalarFunc::kConcatSkipNull) r.nulls = strict_nulls(args, n);
  auto& arena = r.new_arena();
  auto put = [&](size_t i, std::string s) {
    arena.push_back(std::move(s));
    r.strings[i] = arena.back();
  };
  for (size_t i = 0; i < n; i++) {
    if (r.is_null(i)) continue;
    switch (e.func) {
      case ScalarFunc::kSubstr: {
        const bool has_count = args.size() > 2;
        r.strings[i] = substr(e, args[0].string_at(i), args[1].ints[i], has_count, has_count ? args[2].ints[i] : 0);
        break;
      }
      case ScalarFunc::kUpper:
      case ScalarFunc::kLower: put(i, utf8::change_case(args[0].string_at(i), e.func == ScalarFunc::kUpper)); break;
      case ScalarFunc::kBtrim:
      case ScalarFunc::kLtrim:
      case ScalarFunc::kRtrim:
        r.strings[i] = trim(args[0].string_at(i), args[1].string_at(i), e.func != ScalarFunc::kRtrim,
                            e.func != ScalarFunc::kLtrim);
        break;
      case ScalarFunc::kConcat:
      case ScalarFunc::kConcatSkipNull: {
        std::string s;
        for (auto& a : args)
          if (!a.is_null(i)) s.append(a.string_at(i));
        put(i, std::move(s));
        break;
      }
      case ScalarFunc::kReplace:
        put(i, replace_all(args[0].string_at(i), args[1].string_at(i), args[2].string_at(i)));
        break;
      default: fail(ErrorKind::kInternal, "{} is not a string function", e.to_string());
    }
  }
  if (e.func == ScalarFunc::kSubstr || e.func == ScalarFunc::kBtrim || e.func == ScalarFunc::kLtrim ||
      e.func == ScalarFunc::kRtrim)
    share_storage(r, args[0]);
  return r;
}

}  // namespace raydb::exec
