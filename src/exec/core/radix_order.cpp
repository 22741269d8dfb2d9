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

namespace {

// Reorders `order` stably by column `col` of the rows (signed, ascending).
void stable_radix_pass(const std::vector<int64_t>& words, size_t width, size_t col, std::vector<uint32_t>& order) {
  const size_t n = order.size();
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i = 0; i < n; i++) {
    const int64_t v = words[i * width + col];
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  // Offsets from the minimum, unsigned: a - min is exact and keeps the signed order.
  const uint64_t min = uint64_t(lo);
  const uint64_t span = uint64_t(hi) - min;
  if (span == 0) return;
  const int passes = (std::bit_width(span) + kDigitBits - 1) / kDigitBits;
  std::vector<uint64_t> offset(n), offset2(n);
  for (size_t i = 0; i < n; i++) offset[i] = uint64_t(words[size_t(order[i]) * width + col]) - min;
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
}

}  // namespace

std::vector<uint32_t> ascending_order(const std::vector<int64_t>& keys) { return ascending_order_rows(keys, 1); }

std::vector<uint32_t> ascending_order_rows(const std::vector<int64_t>& words, size_t width) {
  const size_t n = width ? words.size() / width : 0;
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (n < 2) return order;
  if (n < kRadixMinKeys) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::lexicographical_compare(words.begin() + long(a * width), words.begin() + long(a * width + width),
                                          words.begin() + long(b * width), words.begin() + long(b * width + width));
    });
    return order;
  }
  for (size_t col = width; col-- > 0;) stable_radix_pass(words, width, col, order);
  return order;
}

}  // namespace raydb::exec
