#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda {

bool bitmap_pays(uint64_t span, std::size_t ranges) {
  if (span == 0) return false;  // every 64-bit value
  if (span <= (uint64_t(1) << 20)) return true;
  return span <= (uint64_t(1) << 28) && span <= 512 * uint64_t(ranges);
}

std::vector<uint32_t> range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span) {
  std::vector<uint32_t> bits(std::size_t((span + 31) / 32), 0);
  for (auto [a, b] : sr) {
    uint64_t from = a - lo;
    const uint64_t to = b - lo;  // inclusive
    // Up to a word boundary bit by bit, whole words, then the last word's low bits.
    while (from <= to && (from & 31) != 0) bits[std::size_t(from >> 5)] |= 1u << (from & 31), from++;
    while (from + 31 <= to) bits[std::size_t(from >> 5)] = ~0u, from += 32;
    while (from <= to) bits[std::size_t(from >> 5)] |= 1u << (from & 31), from++;
  }
  return bits;
}

}  // namespace raydb::exec::cuda
