#pragma once
// BlockPred: a fact-table filter on a tile. The predicate is a set of inclusive
// ranges of stored values (compiled on the host from the SQL constants, exactly).
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

// With V = uint32_t the host has clamped the ranges to 32 bits (launch_star). One
// unsigned compare per item and range: lo <= v <= hi iff v - lo <= hi - lo (mod 2^n);
// an empty range (lo > hi, the host's "never true") is skipped.
template <typename V, Layout L>
__device__ __forceinline__ void pred_tile(const DevPred& p, const DevColumn& c, uint64_t base, bool (&flag)[kItems]) {
  V v[kItems];
  with_width<V, L>(c, base, flag, v);
  bool ok[kItems];
#pragma unroll
  for (int i = 0; i < kItems; i++) ok[i] = false;
  for (int k = 0; k < p.nranges; k++) {
    if (p.lo[k] > p.hi[k]) continue;
    const V lo = V(p.lo[k]), span = V(p.hi[k] - p.lo[k]);
#pragma unroll
    for (int i = 0; i < kItems; i++) ok[i] |= V(v[i] - lo) <= span;
  }
#pragma unroll
  for (int i = 0; i < kItems; i++) flag[i] = flag[i] && ok[i];
}

}  // namespace raydb::exec::cuda::block
