#pragma once
// Kernels of the GPU order statistics (order_statistics_gpu.h). A slot is one (group,
// wanted rank) pair, s = group * m + j; ranks[s] == kNoRank marks an unused slot. Keys
// come from ColumnInput on the device (the same order_key.h transform as the CPU).
// Every kernel loops grid-stride over rows; counters live in shared memory when they
// fit (flushed with one atomic per counter per block), else in global memory.
#include <cstdint>

#include "exec/core/order_statistics/column_input.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda::ops {

using orderstat::ColumnInput;
using u64 = unsigned long long;
constexpr u64 kNoRankDevice = ~u64(0);

// Counting rows per group.
template <bool kShared>
__global__ void count_groups_kernel(ColumnInput in, u64* counts) {
  extern __shared__ unsigned int shared_counts[];
  if (kShared) {
    for (uint32_t g = threadIdx.x; g < in.groups; g += blockDim.x) shared_counts[g] = 0;
    __syncthreads();
  }
  GRID_LOOP(i, in.n) {
    if (!in.counts(i)) continue;
    if (kShared) atomicAdd(&shared_counts[in.group(i)], 1u);
    else atomicAdd(&counts[in.group(i)], 1ull);
  }
  if (kShared) {
    __syncthreads();
    for (uint32_t g = threadIdx.x; g < in.groups; g += blockDim.x)
      if (shared_counts[g]) atomicAdd(&counts[g], u64(shared_counts[g]));
  }
}

// Bitwise selection, one bit: counts[s] += rows of slot s's group with key < x[s] + step.
template <bool kShared>
__global__ void bitwise_count_kernel(ColumnInput in, uint32_t m, const u64* ranks, const u64* x, u64 step, u64* counts) {
  extern __shared__ unsigned int shared_counts[];
  const uint32_t slots = in.groups * m;
  if (kShared) {
    for (uint32_t s = threadIdx.x; s < slots; s += blockDim.x) shared_counts[s] = 0;
    __syncthreads();
  }
  GRID_LOOP(i, in.n) {
    if (!in.counts(i)) continue;
    const u64 key = in.key(i);
    const uint32_t base = in.group(i) * m;
    for (uint32_t j = 0; j < m; j++) {
      const uint32_t s = base + j;
      if (ranks[s] == kNoRankDevice || key >= x[s] + step) continue;
      if (kShared) atomicAdd(&shared_counts[s], 1u);
      else atomicAdd(&counts[s], 1ull);
    }
  }
  if (kShared) {
    __syncthreads();
    for (uint32_t s = threadIdx.x; s < slots; s += blockDim.x)
      if (shared_counts[s]) atomicAdd(&counts[s], u64(shared_counts[s]));
  }
}

// Bitwise selection, after a bit's count: set the bit where count <= rank (the paper's
// lemma), clear the counter for the next bit.
__global__ void bitwise_update_kernel(uint32_t slots, const u64* ranks, u64* x, u64* counts, u64 step) {
  GRID_LOOP(s, slots) {
    if (ranks[s] != kNoRankDevice && counts[s] <= ranks[s]) x[s] += step;
    counts[s] = 0;
  }
}

// Sort path: the key and group of every row, and whether it counts.
__global__ void gather_keys_kernel(ColumnInput in, u64* keys, uint32_t* groups, uint8_t* flags) {
  GRID_LOOP(i, in.n) {
    keys[i] = in.key(i);
    groups[i] = in.group(i);
    flags[i] = in.counts(i) ? 1 : 0;
  }
}

// Sort path: out[s] = sorted[start[g] + ranks[s]] for s = g * m + j.
__global__ void pick_sorted_kernel(uint32_t slots, uint32_t m, const u64* ranks, const u64* start, const u64* sorted,
                                   u64* out) {
  GRID_LOOP(s, slots) out[s] = ranks[s] == kNoRankDevice ? 0 : sorted[start[s / m] + ranks[s]];
}

}  // namespace raydb::exec::cuda::ops
