#pragma once
// BlockPred: a fact-table filter on a tile. The predicate is a set of inclusive
// ranges of stored values (compiled on the host from the SQL constants, exactly).
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

__device__ __forceinline__ void pred_tile(const DevPred& p, const DevColumn& c, uint64_t base, bool (&flag)[kItems]) {
  uint64_t v[kItems];
  with_width(c, base, flag, v, [] {});
#pragma unroll
  for (int i = 0; i < kItems; i++) {
    bool ok = false;
    for (int k = 0; k < p.nranges; k++) ok |= (v[i] >= p.lo[k]) & (v[i] <= p.hi[k]);
    flag[i] = flag[i] && ok;
  }
}

}  // namespace raydb::exec::cuda::block
