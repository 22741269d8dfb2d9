#pragma once
// Integer helpers for key ranges. hi - lo on int64 overflows (undefined behaviour)
// when the range spans more than 2^63, e.g. a BIGINT column holding both negative
// values and INT64_MAX; in uint64 the difference is exact for any lo <= hi, and an
// out-of-range key wraps to a large offset that range checks reject.
#include <cstdint>

namespace raydb {

// hi - lo for lo <= hi, exact (no signed overflow). Also the offset of `hi` from `lo`
// for any pair: keys below `lo` wrap to offsets >= 2^63.
constexpr uint64_t unsigned_span(int64_t lo, int64_t hi) { return uint64_t(hi) - uint64_t(lo); }

// Number of values in [lo, hi], saturating at UINT64_MAX (the full range has 2^64).
constexpr uint64_t value_count(int64_t lo, int64_t hi) {
  uint64_t s = unsigned_span(lo, hi);
  return s == UINT64_MAX ? s : s + 1;
}

}  // namespace raydb
