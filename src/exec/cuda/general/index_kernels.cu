// Kernels of the general path's index steps (index_kernels.h).
#include <cub/device/device_radix_sort.cuh>

#include "gpu/device_buffer.h"
#include "gpu/launch.cuh"
#include "exec/cuda/general/index_kernels.h"

namespace raydb::exec::cuda::general {

namespace {

__global__ void probe_bounds_kernel(const __int128* values, const uint8_t* nulls, uint64_t n, ProbeCodec codec,
                                    unsigned long long* bounds) {
  GRID_LOOP(i, n) {
    const __int128 v = values[i];
    unsigned long long lo = 1, hi = 0;  // empty: finds nothing
    if (!nulls[i]) {
      switch (codec) {
        case ProbeCodec::kSigned32:
          if (v >= INT32_MIN && v <= INT32_MAX) lo = hi = (unsigned long long)(uint32_t(int32_t(v)) ^ 0x80000000u);
          break;
        case ProbeCodec::kSigned64:
          if (v >= INT64_MIN && v <= INT64_MAX) lo = hi = (unsigned long long)(int64_t(v)) ^ (1ull << 63);
          break;
        case ProbeCodec::kUnsigned32:
          if (v >= 0 && v <= UINT32_MAX) lo = hi = (unsigned long long)(v);
          break;
      }
    }
    bounds[2 * i] = lo;
    bounds[2 * i + 1] = hi;
  }
}

__global__ void expand_runs_kernel(const unsigned long long* offsets, const rt::mapping::KeyRun* runs, uint64_t n,
                                   const uint32_t* sorted_rows, uint64_t total, uint32_t* rows_out,
                                   uint32_t* src_out) {
  GRID_LOOP(o, total) {
    // Last i with offsets[i] <= o (lookups with no rows share their successor's offset).
    uint64_t a = 0, e = n;
    while (a < e) {
      const uint64_t m = a + (e - a) / 2;
      if (offsets[m] <= o)
        a = m + 1;
      else
        e = m;
    }
    const uint64_t i = a - 1;
    rows_out[o] = sorted_rows[runs[i].begin + (o - offsets[i])];
    if (src_out) src_out[o] = uint32_t(i);
  }
}

}  // namespace

void launch_probe_bounds(const __int128* values, const uint8_t* nulls, uint64_t n, ProbeCodec codec,
                         unsigned long long* bounds, cudaStream_t s) {
  if (n == 0) return;
  probe_bounds_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, nulls, n, codec, bounds);
  gpu::check_cuda(cudaGetLastError(), "probe keys kernel");
}

void launch_expand_runs(const unsigned long long* offsets, const rt::mapping::KeyRun* runs, uint64_t n,
                        const uint32_t* sorted_rows, uint64_t total, uint32_t* rows_out, uint32_t* src_out,
                        cudaStream_t s) {
  if (total == 0) return;
  expand_runs_kernel<<<gpu::grid_blocks(total), gpu::kThreads, 0, s>>>(offsets, runs, n, sorted_rows, total, rows_out, src_out);
  gpu::check_cuda(cudaGetLastError(), "expand runs kernel");
}

namespace {

__global__ void word_counts_kernel(const uint64_t* words, uint64_t n, unsigned long long* counts) {
  const uint64_t w = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w < n) counts[w] = unsigned(__popcll(words[w]));
}

__global__ void expand_words_kernel(const uint64_t* words, const unsigned long long* offsets, uint64_t n,
                                    uint32_t* rows_out) {
  const uint64_t w = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w >= n) return;
  uint64_t x = words[w];
  unsigned long long o = offsets[w];
  for (; x; x &= x - 1) rows_out[o++] = uint32_t(w * 64 + uint64_t(__ffsll((long long)x) - 1));
}

}  // namespace

void launch_word_counts(const uint64_t* words, uint64_t n_words, unsigned long long* counts, cudaStream_t s) {
  if (n_words == 0) return;
  word_counts_kernel<<<gpu::grid_blocks(n_words), gpu::kThreads, 0, s>>>(words, n_words, counts);
  gpu::check_cuda(cudaGetLastError(), "word counts kernel");
}

void launch_expand_words(const uint64_t* words, const unsigned long long* offsets, uint64_t n_words,
                         uint32_t* rows_out, cudaStream_t s) {
  if (n_words == 0) return;
  expand_words_kernel<<<gpu::grid_blocks(n_words), gpu::kThreads, 0, s>>>(words, offsets, n_words, rows_out);
  gpu::check_cuda(cudaGetLastError(), "expand words kernel");
}

void sort_row_ids(const uint32_t* in, uint32_t* out, uint64_t n, uint64_t bound, cudaStream_t s) {
  if (n == 0) return;
  int bits = 1;
  while (bits < 32 && (uint64_t(1) << bits) < bound) bits++;
  size_t bytes = 0;
  gpu::check_cuda(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, int(n), 0, bits, s), "cub (size query)");
  gpu::DeviceBuffer temp(std::max<size_t>(bytes, 16), "row id sort scratch");
  // temp returns to the pool while the sort is queued: reuse on this stream is ordered after it.
  gpu::check_cuda(cub::DeviceRadixSort::SortKeys(temp.get(), bytes, in, out, int(n), 0, bits, s), "cub sort");
}

}  // namespace raydb::exec::cuda::general
