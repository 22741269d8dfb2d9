// Kernels of top_group_kernels.h. Grid-stride loops with 64-bit indices.
#include <cub/device/device_radix_sort.cuh>

#include "exec/cuda/general/top_group_kernels.h"
#include "gpu/device_buffer.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda::general {

namespace {

using u128 = unsigned __int128;
constexpr u128 kSign = u128(1) << 127;

__global__ void top_keys_kernel(const unsigned long long* count, const unsigned long long* sum_lo,
                                const unsigned long long* sum_hi, const unsigned long long* sum_top, uint64_t groups,
                                bool desc, bool int64_result, u128* key, unsigned long long* stats) {
  GRID_LOOP(g, groups) {
    u128 k;
    if (!sum_lo) {
      k = u128(count[g]) ^ kSign;  // counts are non-negative: above every negative key
    } else if (count[g] == 0) {
      atomicAdd(stats, 1ull);
      key[g] = ~u128(0);
      continue;
    } else {
      const u128 v = (u128(sum_hi[g]) << 64) | u128(sum_lo[g]);
      const __int128 sv = __int128(v);
      // total = top * 2^128 + (hi:lo unsigned) = sv + (top + [sv < 0]) * 2^128.
      const bool wraps = sum_top && sum_top[g] + (sv < 0 ? 1ull : 0ull) != 0;
      if (wraps || (int64_result && (sv > __int128(INT64_MAX) || sv < __int128(INT64_MIN)))) stats[1] = 1;
      k = v ^ kSign;
    }
    key[g] = desc ? ~k : k;
  }
}

__global__ void top_flags_kernel(const u128* key, const unsigned long long* count, bool nullable, uint64_t groups,
                                 u128 threshold, bool nulls_in, bool values_in, uint8_t* flag) {
  GRID_LOOP(g, groups) {
    const bool null = nullable && count[g] == 0;
    flag[g] = null ? nulls_in : values_in && key[g] <= threshold;
  }
}

struct PackedKeys {
  const __int128* values[8];
  long long mins[8];
  int shifts[8];
  int n;
};

__global__ void packed_words_kernel(PackedKeys k, uint64_t n, unsigned long long* out) {
  GRID_LOOP(i, n) {
    unsigned long long w = 0;
    for (int j = 0; j < k.n; j++)
      w |= ((unsigned long long)(long long)k.values[j][i] - (unsigned long long)k.mins[j]) << k.shifts[j];
    out[i] = w;
  }
}

__global__ void gather_u64_kernel(const unsigned long long* src, const uint32_t* idx, uint64_t n,
                                  unsigned long long* out) {
  GRID_LOOP(i, n) out[i] = src[idx[i]];
}

}  // namespace

void launch_top_keys(const unsigned long long* count, const unsigned long long* sum_lo, const unsigned long long* sum_hi,
                     const unsigned long long* sum_top, uint64_t groups, bool desc, bool int64_result, u128* key,
                     unsigned long long* stats, cudaStream_t s) {
  if (groups)
    top_keys_kernel<<<gpu::grid_blocks(groups), gpu::kThreads, 0, s>>>(count, sum_lo, sum_hi, sum_top, groups, desc,
                                                                        int64_result, key, stats);
}

void launch_top_flags(const u128* key, const unsigned long long* count, bool nullable, uint64_t groups,
                      u128 threshold, bool nulls_in, bool values_in, uint8_t* flag, cudaStream_t s) {
  if (groups)
    top_flags_kernel<<<gpu::grid_blocks(groups), gpu::kThreads, 0, s>>>(key, count, nullable, groups, threshold,
                                                                         nulls_in, values_in, flag);
}

void sort_keys_u128(const u128* in, u128* out, uint64_t n, cudaStream_t s) {
  if (n == 0) return;
  // CUB takes int item counts; groups stay below 2^31 (row counts do).
  size_t bytes = 0;
  gpu::check_cuda(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, int(n), 0, 128, s), "cub (size query)");
  gpu::DeviceBuffer temp(std::max<size_t>(bytes, 16), "top groups sort");
  gpu::check_cuda(cub::DeviceRadixSort::SortKeys(temp.get(), bytes, in, out, int(n), 0, 128, s), "cub");
}

void launch_packed_words(const __int128* const* values, const long long* mins, const int* shifts, int nkeys,
                         uint64_t n, unsigned long long* out, cudaStream_t s) {
  PackedKeys k{};
  k.n = nkeys;
  for (int j = 0; j < nkeys && j < 8; j++) k.values[j] = values[j], k.mins[j] = mins[j], k.shifts[j] = shifts[j];
  if (n) packed_words_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(k, n, out);
}

void launch_gather_u64(const unsigned long long* src, const uint32_t* idx, uint64_t n, unsigned long long* out,
                       cudaStream_t s) {
  if (n) gather_u64_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(src, idx, n, out);
}

}  // namespace raydb::exec::cuda::general
