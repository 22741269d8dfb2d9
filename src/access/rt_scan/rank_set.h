#pragma once
// Sets of ranks as sorted, disjoint, non-empty half-open intervals [lo, hi). Every
// predicate of an RT scan becomes one per column (uniform encoding: a value's copies
// hold one interval of ranks, so any value predicate is a union of such intervals).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "rt/mapping/scan_refine.h"

namespace raydb::access::rt_scan {

using RankRange = rt::mapping::RankRange;

// Loops over fewer items than this run on one thread: starting a parallel region costs
// more than the work, and far more on a busy machine.
inline constexpr int64_t kParallelMin = 32768;
using RankSet = std::vector<RankRange>;

// Sorts, drops empty intervals, merges overlapping and adjacent ones.
inline RankSet normalized(RankSet s) {
  std::sort(s.begin(), s.end(), [](const RankRange& a, const RankRange& b) { return a.lo < b.lo; });
  RankSet out;
  for (const RankRange& r : s) {
    if (r.lo >= r.hi) continue;
    if (!out.empty() && r.lo <= out.back().hi)
      out.back().hi = std::max(out.back().hi, r.hi);
    else
      out.push_back(r);
  }
  return out;
}

inline uint64_t ranks_in(const RankSet& s) {
  uint64_t n = 0;
  for (const RankRange& r : s) n += r.hi - r.lo;
  return n;
}

inline RankSet unite(const RankSet& a, const RankSet& b) {
  RankSet s = a;
  s.insert(s.end(), b.begin(), b.end());
  return normalized(std::move(s));
}

inline RankSet intersect(const RankSet& a, const RankSet& b) {
  RankSet out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint32_t lo = std::max(a[i].lo, b[j].lo), hi = std::min(a[i].hi, b[j].hi);
    if (lo < hi) out.push_back({lo, hi});
    if (a[i].hi < b[j].hi)
      ++i;
    else
      ++j;
  }
  return out;
}

// [0, m) minus s (s within [0, m)).
inline RankSet complement(const RankSet& s, uint32_t m) {
  RankSet out;
  uint32_t at = 0;
  for (const RankRange& r : s) {
    if (r.lo > at) out.push_back({at, r.lo});
    at = std::max(at, r.hi);
  }
  if (at < m) out.push_back({at, m});
  return out;
}

inline RankSet difference(const RankSet& a, const RankSet& b, uint32_t m) { return intersect(a, complement(b, m)); }

// Ranks in exactly one of a and b.
inline RankSet symmetric_difference(const RankSet& a, const RankSet& b, uint32_t m) {
  return unite(difference(a, b, m), difference(b, a, m));
}

inline RankSet hull(const RankSet& s) {
  if (s.empty()) return {};
  return {{s.front().lo, s.back().hi}};
}

}  // namespace raydb::access::rt_scan
