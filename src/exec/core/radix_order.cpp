#include "exec/core/radix_order.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace raydb::exec {

namespace {

// Below this many keys a comparison sort is as fast and allocates less.
constexpr size_t kRadixMinKeys = 4096;
// 11-bit digits: 3 passes cover 33 bits (order keys up to 6e6 x SF 1000); 2048
// counters stay in L1.
constexpr int kDigitBits = 11;
constexpr size_t kDigits = size_t(1) << kDigitBits;
constexpr uint64_t kDigitMask = kDigits - 1;

}  // namespace

std::vector<uint32_t> ascending_order(const std::vector<int64_t>& keys) {
  const size_t n = keys.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (n < 2) return order;
  if (n < kRadixMinKeys) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    return order;
  }
  const auto [lo, hi] = std::minmax_element(keys.begin(), keys.end());
  // Offsets from the minimum, unsigned: a - min is exact and keeps the signed order.
  const uint64_t min = uint64_t(*lo);
  const uint64_t span = uint64_t(*hi) - min;
  if (span == 0) return order;
  const int passes = (std::bit_width(span) + kDigitBits - 1) / kDigitBits;
  std::vector<uint64_t> offset(n), offset2(n);
  for (size_t i = 0; i < n; i++) offset[i] = uint64_t(keys[i]) - min;
  std::vector<uint32_t> order2(n);
  std::vector<size_t> start(kDigits + 1);
  for (int b = 0; b < passes; b++) {
    const int shift = kDigitBits * b;
    std::fill(start.begin(), start.end(), 0);
    for (size_t i = 0; i < n; i++) start[((offset[i] >> shift) & kDigitMask) + 1]++;
    for (size_t d = 1; d < start.size(); d++) start[d] += start[d - 1];
    for (size_t i = 0; i < n; i++) {  // in the current order: stable
      const size_t at = start[(offset[i] >> shift) & kDigitMask]++;
      offset2[at] = offset[i];
      order2[at] = order[i];
    }
    offset.swap(offset2);
    order.swap(order2);
  }
  return order;
}

}  // namespace raydb::exec
