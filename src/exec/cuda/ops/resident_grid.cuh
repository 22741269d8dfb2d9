#pragma once
// Grid size for the selection kernels that keep per-block counters (histograms,
// per-slot counts): as many blocks as stay resident at once, each looping over many
// rows, so the zeroing and flushing of a block's counters is paid a few thousand
// times per pass, not once per 256 rows.
#include <algorithm>
#include <cstdint>

#include "gpu/cuda_check.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda::ops {

template <typename Kernel>
unsigned resident_grid(Kernel kernel, size_t shared, uint64_t n, int threads = raydb::gpu::kThreads) {
  int per_sm = 0;
  raydb::gpu::check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared), "occupancy");
  const uint64_t need = std::max<uint64_t>(1, (n + threads - 1) / threads);
  return unsigned(std::min<uint64_t>(need, uint64_t(std::max(per_sm, 1)) * raydb::gpu::sm_count()));
}

}  // namespace raydb::exec::cuda::ops
