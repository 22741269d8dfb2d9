#pragma once
// BlockPred: a fact-table filter on a tile. The predicate is a set of inclusive
// ranges of stored values (compiled on the host from the SQL constants, exactly).
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

// With V = uint32_t the host has clamped the ranges to 32 bits (launch_star). One
// unsigned compare per item and range: lo <= v <= hi iff v - lo <= hi - lo (mod 2^n);
// an empty range (lo > hi, the host's "never true") is skipped.
template <typename V, Layout L>
__device__ __forceinline__ void pred_tile(const DevPred& p, const DevColumn& c, uint64_t base, uint32_t& sel) {
  V v[kItems];
  with_width<V, L>(c, base, sel, v);
  uint32_t ok = 0;
  for (int k = 0; k < p.nranges; k++) {
    if (p.lo[k] > p.hi[k]) continue;
    const V lo = V(p.lo[k]), span = V(p.hi[k] - p.lo[k]);
#pragma unroll
    for (int i = 0; i < kItems; i++) ok |= uint32_t(V(v[i] - lo) <= span) << i;
  }
  sel &= ok;
}

}  // namespace raydb::exec::cuda::block
