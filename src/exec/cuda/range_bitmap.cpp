#include "exec/cuda/range_bitmap.h"

#include <atomic>

namespace raydb::exec::cuda {

namespace {

// Bits [from, to] (offsets, inclusive) of one range: a masked first and last word,
// whole words between. Whole words belong to this range alone; a first or last word
// may be shared with the neighbouring ranges, so those are OR-ed atomically (ranges
// are filled in parallel). O(words + 1) per range, no loop per bit.
void fill_range(uint32_t* bits, uint64_t from, uint64_t to) {
  const uint64_t first = from >> 5, last = to >> 5;
  const uint32_t head = ~0u << (from & 31), tail = ~0u >> (31 - (to & 31));
  if (first == last) {
    std::atomic_ref<uint32_t>(bits[first]).fetch_or(head & tail, std::memory_order_relaxed);
    return;
  }
  std::atomic_ref<uint32_t>(bits[first]).fetch_or(head, std::memory_order_relaxed);
  for (uint64_t w = first + 1; w < last; w++) bits[w] = ~0u;
  std::atomic_ref<uint32_t>(bits[last]).fetch_or(tail, std::memory_order_relaxed);
}

}  // namespace

bool bitmap_pays(uint64_t span, std::size_t ranges) {
  if (span == 0) return false;  // every 64-bit value
  if (span <= (uint64_t(1) << 20)) return true;
  return span <= (uint64_t(1) << 28) && span <= 512 * uint64_t(ranges);
}

BitWords range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span) {
  BitWords bits(std::size_t((span + 31) / 32), 0u);
  uint32_t* out = bits.data();
  const long n = long(sr.size());
  // A semi join's 1.3 M keys or an anti join's complement at SF 20: in parallel.
#pragma omp parallel for schedule(static) if (n > 65536)
  for (long i = 0; i < n; i++) fill_range(out, sr[size_t(i)].first - lo, sr[size_t(i)].second - lo);
  return bits;
}

}  // namespace raydb::exec::cuda
