#include "gen/ssb/string_sort.h"

#include <omp.h>

#include <algorithm>
#include <parallel/algorithm>

#include "common/error.h"

namespace raydb::ssb {

namespace {

// A row and a 16-byte window of its string (bytes [depth, depth + 16), big-endian,
// zero-padded past the end). Sorting compares windows as integers, so a comparison
// reads no string memory; the strings are read once per window, when keys are loaded.
struct Key {
  uint64_t high, low;
  uint32_t row;
  uint32_t length;  // the string's length, capped at 2^32 - 1
};

constexpr uint64_t kWindow = 16;

uint64_t big_endian_word(const std::string& s, uint64_t at) {
  uint64_t p = 0;
  for (uint64_t i = at; i < std::min<uint64_t>(at + 8, s.size()); i++) p |= uint64_t(uint8_t(s[i])) << (56 - 8 * (i - at));
  return p;
}

void load(const std::vector<std::string>& values, Key& k, uint64_t depth) {
  const std::string& s = values[k.row];
  k.high = big_endian_word(s, depth);
  k.low = big_endian_word(s, depth + 8);
}

bool same_window(const Key& a, const Key& b) { return a.high == b.high && a.low == b.low; }
bool longer_than_window(const Key& k, uint64_t depth) { return k.length > depth + kWindow; }

// Order of keys whose strings agree on their first `depth` bytes: by the window, then
// by the length capped at depth + 17. A string that ends inside the window is a prefix
// of every longer string with the same padded window (the padding zeros are that
// string's bytes), so it sorts first; equal windows and equal lengths within it are
// equal strings. Strings longer than the window stay tied for the next window.
struct LessAt {
  uint64_t cap;
  bool operator()(const Key& a, const Key& b) const {
    if (a.high != b.high) return a.high < b.high;
    if (a.low != b.low) return a.low < b.low;
    return std::min<uint64_t>(a.length, cap) < std::min<uint64_t>(b.length, cap);
  }
};

// Whether b's string differs from a's (sorted just before it) as far as the window at
// `depth` tells; final unless both are longer than the window with one window.
bool differs(const Key& a, const Key& b, uint64_t depth) {
  return !(same_window(a, b) && a.length == b.length && !longer_than_window(a, depth));
}

struct Run {
  uint64_t begin, end, depth;  // keys[begin, end) are sorted at `depth`
};

// Marks new values in [begin, end) and sorts each tie of strings longer than the
// window by the next window, until every tie is settled (iteratively: a long run of
// equal strings needs one window per 16 bytes).
void settle(const std::vector<std::string>& values, Key* keys, uint8_t* fresh, uint64_t begin, uint64_t end) {
  std::vector<Run> todo{{begin, end, 0}};
  while (!todo.empty()) {
    const Run r = todo.back();
    todo.pop_back();
    for (uint64_t i = r.begin + 1; i < r.end; i++) fresh[i] = differs(keys[i - 1], keys[i], r.depth);
    for (uint64_t i = r.begin; i < r.end;) {
      uint64_t j = i + 1;
      if (longer_than_window(keys[i], r.depth))
        while (j < r.end && longer_than_window(keys[j], r.depth) && same_window(keys[i], keys[j])) j++;
      if (j - i > 1) {
        const uint64_t next = r.depth + kWindow;
        for (uint64_t k = i; k < j; k++) load(values, keys[k], next);
        std::sort(keys + i, keys + j, LessAt{next + kWindow + 1});
        todo.push_back({i, j, next});
      }
      i = j;
    }
  }
}

// Slice boundaries for the threads, moved forward out of unsettled ties so that each
// tie lies in one slice.
std::vector<uint64_t> slice_bounds(const std::vector<Key>& keys, int slices) {
  const uint64_t n = keys.size();
  std::vector<uint64_t> bounds{0};
  for (int s = 1; s < slices; s++) {
    uint64_t p = std::max(bounds.back(), n * uint64_t(s) / uint64_t(slices));
    while (p > 0 && p < n && longer_than_window(keys[p], 0) && longer_than_window(keys[p - 1], 0) &&
           same_window(keys[p], keys[p - 1]))
      p++;
    bounds.push_back(p);
  }
  bounds.push_back(n);
  return bounds;
}

}  // namespace

StringOrder sort_strings(const std::vector<std::string>& values) {
  const uint64_t n = values.size();
  if (n >= UINT32_MAX) fail(ErrorKind::kInvalidInput, "cannot sort {} strings (at most 2^32 - 2)", n);
  std::vector<Key> keys(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < int64_t(n); i++) {
    Key& k = keys[size_t(i)];
    k.row = uint32_t(i);
    k.length = uint32_t(std::min<size_t>(values[size_t(i)].size(), UINT32_MAX));
    load(values, k, 0);
  }
  __gnu_parallel::sort(keys.begin(), keys.end(), LessAt{kWindow + 1});  // multiway mergesort on OpenMP threads

  StringOrder out;
  out.new_value.assign(n, 1);
  const int slices = std::max(1, std::min<int>(omp_get_max_threads() * 4, int(n / 4096) + 1));
  const std::vector<uint64_t> bounds = slice_bounds(keys, slices);
#pragma omp parallel for schedule(dynamic, 1)
  for (int s = 0; s < slices; s++) {
    const uint64_t b = bounds[size_t(s)], e = bounds[size_t(s) + 1];
    if (b == e) continue;
    // The slice's first key against the one before: not a tie of long strings (slice_bounds).
    if (b > 0) out.new_value[b] = differs(keys[b - 1], keys[b], 0);
    settle(values, keys.data(), out.new_value.data(), b, e);
  }
  out.rows.resize(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < int64_t(n); i++) out.rows[size_t(i)] = keys[size_t(i)].row;
  return out;
}

}  // namespace raydb::ssb
