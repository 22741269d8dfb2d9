#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda {

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
  for (long i = 0; i < n; i++) set_bit_range<true>(out, sr[size_t(i)].first - lo, sr[size_t(i)].second - lo);
  return bits;
}

}  // namespace raydb::exec::cuda
