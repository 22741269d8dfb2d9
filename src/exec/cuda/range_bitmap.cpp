#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda {

bool bitmap_pays(uint64_t span, std::size_t ranges) {
  if (span == 0) return false;  // every 64-bit value
  if (span <= (uint64_t(1) << 20)) return true;
  return span <= (uint64_t(1) << 28) && span <= 512 * uint64_t(ranges);
}

BitWords range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span) {
  BitWords bits;
  bits.resize(std::size_t((span + 31) / 32));  // unwritten: fill_range_bitmap writes every word
  fill_range_bitmap(sr, lo, span, bits.data());
  return bits;
}

void fill_range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span,
                       uint32_t* out) {
  // Zeroed on all threads (a fresh buffer's first touch too), not on one.
  const long words = long((span + 31) / 32);
#pragma omp parallel for schedule(static) if (words > 65536)
  for (long w = 0; w < words; w++) out[w] = 0;
  const long n = long(sr.size());
  // A semi join's 1.3 M keys or an anti join's complement at SF 20: in parallel.
#pragma omp parallel for schedule(static) if (n > 65536)
  for (long i = 0; i < n; i++) set_bit_range<true>(out, sr[size_t(i)].first - lo, sr[size_t(i)].second - lo);
}

}  // namespace raydb::exec::cuda
