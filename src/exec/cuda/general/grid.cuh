#pragma once
// Launch shapes of the general path's element-wise kernels: 256-thread blocks, a grid
// capped so large inputs loop (grid-stride, 64-bit indices: row counts pass 2^32 in
// intermediate products).
#include <cstdint>

namespace raydb::exec::cuda::general {

constexpr int kThreads = 256;

inline unsigned blocks_for(uint64_t n) {
  uint64_t b = (n + kThreads - 1) / kThreads;
  if (b > 65535ull * 16) b = 65535ull * 16;
  return unsigned(b ? b : 1);
}

}  // namespace raydb::exec::cuda::general

#define GRID_LOOP(i, n) \
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += uint64_t(gridDim.x) * blockDim.x)
