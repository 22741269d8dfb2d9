#pragma once
// Launch shapes of element-wise kernels, shared by every CUDA layer.
//   item_blocks: one thread per item; the kernel tests i < n and does not loop.
//   grid_blocks: a grid capped so large inputs loop (GRID_LOOP, grid-stride with
//                64-bit indices: row counts pass 2^32 in intermediate products).
//   sm_count:    the current device's multiprocessors (resident-grid sizes).
#include <cuda_runtime.h>

#include <cstdint>

namespace raydb::gpu {

constexpr int kThreads = 256;

inline int sm_count() {
  static const int n = [] {
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    return sms > 0 ? sms : 1;
  }();
  return n;
}

inline unsigned item_blocks(uint64_t n, unsigned threads = kThreads) { return unsigned((n + threads - 1) / threads); }

inline unsigned grid_blocks(uint64_t n) {
  uint64_t b = (n + kThreads - 1) / kThreads;
  if (b > 65535ull * 16) b = 65535ull * 16;
  return unsigned(b ? b : 1);
}

}  // namespace raydb::gpu

#define GRID_LOOP(i, n) \
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); i += uint64_t(gridDim.x) * blockDim.x)
