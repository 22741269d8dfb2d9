#pragma once
// BlockProbe: a tile's foreign keys probe a dimension's key-indexed lookup array
// (dense group code, or -1 when the dimension row was filtered out or is absent);
// the group id accumulates code * stride (mixed radix over the dimensions).
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

// `lookup`: j.lookup, or its copy in the block's shared memory (a generic pointer).
template <typename V, bool SH = false>
__device__ __forceinline__ void probe_tile(const DevJoin& j, const int32_t* lookup, const DevColumn& c, uint64_t base,
                                           bool (&flag)[kItems], uint32_t (&gid)[kItems], const char* s = nullptr) {
  V v[kItems];
  col_tile<V, SH>(c, base, s, flag, v);
#pragma unroll
  for (int i = 0; i < kItems; i++) {
    if (!flag[i]) continue;
    uint64_t idx = uint64_t(v[i]) + uint64_t(j.offset);  // unsigned: below-range keys wrap to huge values
    int32_t code = idx < j.size ? lookup[idx] : -1;
    flag[i] = code >= 0;
    gid[i] += uint32_t(code) * uint32_t(j.stride);  // group ids < 2^31 (checked on the host)
  }
}

// A GROUP BY key on the fact table: its stored value is its radix digit.
template <typename V, bool SH = false>
__device__ __forceinline__ void group_tile(const DevRootGroup& g, const DevColumn& c, uint64_t base,
                                           const bool (&flag)[kItems], uint32_t (&gid)[kItems],
                                           const char* s = nullptr) {
  V v[kItems];
  col_tile<V, SH>(c, base, s, flag, v);
#pragma unroll
  for (int i = 0; i < kItems; i++) gid[i] += uint32_t(v[i]) * uint32_t(g.stride);
}

}  // namespace raydb::exec::cuda::block
