#pragma once
// BlockPred: a fact-table filter on a tile. The predicate is a set of inclusive
// ranges of stored values (compiled on the host from the SQL constants, exactly).
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

// With V = uint32_t the host has clamped the ranges to 32 bits (launch_star).
// SH: the tile is staged in shared memory at `s` (see col_tile).
template <typename V, bool SH = false>
__device__ __forceinline__ void pred_tile(const DevPred& p, const DevColumn& c, uint64_t base, bool (&flag)[kItems],
                                          const char* s = nullptr) {
  V v[kItems];
  col_tile<V, SH>(c, base, s, flag, v);
  V lo[kMaxPredRanges], hi[kMaxPredRanges];
#pragma unroll
  for (int k = 0; k < kMaxPredRanges; k++) {
    lo[k] = V(p.lo[k]);
    hi[k] = V(p.hi[k]);
  }
#pragma unroll
  for (int i = 0; i < kItems; i++) {
    bool ok = false;
#pragma unroll
    for (int k = 0; k < kMaxPredRanges; k++)
      if (k < p.nranges) ok |= (v[i] >= lo[k]) & (v[i] <= hi[k]);
    flag[i] = flag[i] && ok;
  }
}

}  // namespace raydb::exec::cuda::block
