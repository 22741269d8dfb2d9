#pragma once
// BlockProbe: a tile's foreign keys probe a dimension's key-indexed lookup array
// (dense group code, or -1 when the dimension row was filtered out or is absent);
// the group id accumulates code * stride (mixed radix over the dimensions).
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

// One lookup entry as (passes, code) for the entry widths of DevJoin.
template <int W>
__device__ __forceinline__ int32_t lookup_code(const void* lookup, uint64_t idx) {
  if constexpr (W == 4) return static_cast<const int32_t*>(lookup)[idx];
  else if constexpr (W == 2) return int32_t(static_cast<const uint16_t*>(lookup)[idx]) - 1;
  else return int32_t(static_cast<const uint8_t*>(lookup)[idx]) - 1;
}

// Branch-free per item: the entry is read only for selected items whose index is in
// range (a predicated load), so dropped rows cost no shared-memory or L2 request.
// idx32 (DevJoin): 32-bit index arithmetic is exact for this column (host-checked).
template <typename V, int W>
__device__ __forceinline__ void probe_items(const DevJoin& j, const void* lookup, const V (&v)[kItems], uint32_t& sel,
                                            uint32_t (&gid)[kItems]) {
  uint32_t keep = 0;
  if (sizeof(V) == 4 && j.idx32) {
    const uint32_t off = uint32_t(uint64_t(j.offset)), size = uint32_t(j.size);
#pragma unroll
    for (int i = 0; i < kItems; i++) {
      const uint32_t idx = uint32_t(v[i]) + off;  // below-range keys wrap to >= 2^31 >= size
      int32_t code = -1;
      if (((sel >> i) & 1u) && idx < size) code = lookup_code<W>(lookup, idx);
      keep |= uint32_t(code >= 0) << i;
      gid[i] += uint32_t(code) * uint32_t(j.stride);  // group ids < 2^31 (checked on the host)
    }
  } else {
#pragma unroll
    for (int i = 0; i < kItems; i++) {
      const uint64_t idx = uint64_t(v[i]) + uint64_t(j.offset);  // unsigned: below-range keys wrap to huge values
      int32_t code = -1;
      if (((sel >> i) & 1u) && idx < j.size) code = lookup_code<W>(lookup, idx);
      keep |= uint32_t(code >= 0) << i;
      gid[i] += uint32_t(code) * uint32_t(j.stride);
    }
  }
  sel &= keep;
}

// `lookup`: j.lookup, or its copy in the block's shared memory (a generic pointer).
template <typename V, Layout L>
__device__ __forceinline__ void probe_tile(const DevJoin& j, const void* lookup, const DevColumn& c, uint64_t base,
                                           uint32_t& sel, uint32_t (&gid)[kItems]) {
  V v[kItems];
  with_width<V, L>(c, base, sel, v);
  switch (j.width) {
    case 1: probe_items<V, 1>(j, lookup, v, sel, gid); break;
    case 2: probe_items<V, 2>(j, lookup, v, sel, gid); break;
    default: probe_items<V, 4>(j, lookup, v, sel, gid); break;
  }
}

// A GROUP BY key on the fact table: its stored value is its radix digit.
template <typename V, Layout L>
__device__ __forceinline__ void group_tile(const DevRootGroup& g, const DevColumn& c, uint64_t base, uint32_t sel,
                                           uint32_t (&gid)[kItems]) {
  V v[kItems];
  with_width<V, L>(c, base, sel, v);
#pragma unroll
  for (int i = 0; i < kItems; i++) gid[i] += uint32_t(v[i]) * uint32_t(g.stride);
}

}  // namespace raydb::exec::cuda::block
