// Cross products and build-side key counts (cross_join.h). Grid-stride loops with
// 64-bit indices, one thread per output row or build row.
#include "gpu/device_buffer.h"
#include "exec/cuda/general/cross_join.h"
#include "gpu/launch.cuh"
#include "exec/cuda/general/key_columns.cuh"

namespace raydb::exec::cuda::general {

namespace {

__global__ void cross_probe_kernel(const uint32_t* probe_rows, uint64_t m, uint64_t b, uint32_t* out) {
  GRID_LOOP(o, m) out[o] = probe_rows[o / b];
}

__global__ void cross_build_kernel(const uint32_t* build_rows, uint64_t m, uint64_t b, uint32_t* out) {
  GRID_LOOP(o, m) out[o] = build_rows[o % b];
}

// Sorted position i counts as a new key when no earlier valid position with the same
// hash holds equal keys (a backward scan stops at the first equal one, so runs of
// duplicates cost O(1) per row; distinct keys sharing a hash are rare).
__global__ void count_keys_kernel(KeyColumns k, const uint8_t* valid, const unsigned long long* hash,
                                  const uint32_t* pos, uint64_t n, unsigned long long* counts) {
  GRID_LOOP(i, n) {
    const uint32_t p = pos[i];
    if (!valid[p]) continue;
    atomicAdd(counts, 1ull);
    bool seen = false;
    for (uint64_t j = i; j-- > 0 && hash[j] == hash[i];) {
      const uint32_t q = pos[j];
      if (valid[q] && keys_equal(k, p, k, q)) {
        seen = true;
        break;
      }
    }
    if (!seen) atomicAdd(counts + 1, 1ull);
  }
}

}  // namespace

void launch_cross_probe(const uint32_t* probe_rows, uint64_t m, uint64_t b, uint32_t* out, cudaStream_t s) {
  if (m) cross_probe_kernel<<<gpu::grid_blocks(m), gpu::kThreads, 0, s>>>(probe_rows, m, b, out);
}

void launch_cross_build(const uint32_t* build_rows, uint64_t m, uint64_t b, uint32_t* out, cudaStream_t s) {
  if (m) cross_build_kernel<<<gpu::grid_blocks(m), gpu::kThreads, 0, s>>>(build_rows, m, b, out);
}

void count_build_keys(const KeyColumns& keys, const uint8_t* valid, const unsigned long long* hash_sorted,
                      const uint32_t* pos_sorted, uint64_t n, uint64_t& valid_rows, uint64_t& distinct,
                      cudaStream_t s) {
  valid_rows = distinct = 0;
  if (n == 0) return;
  gpu::DeviceBuffer counts(16, "join key counts");
  gpu::check_cuda(cudaMemsetAsync(counts.get(), 0, 16, s), "cudaMemset");
  count_keys_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(keys, valid, hash_sorted, pos_sorted, n,
                                                      counts.get<unsigned long long>());
  unsigned long long h[2] = {0, 0};
  gpu::check_cuda(cudaMemcpyAsync(h, counts.get(), 16, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "join key counts");
  valid_rows = h[0];
  distinct = h[1];
}

}  // namespace raydb::exec::cuda::general
