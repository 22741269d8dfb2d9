#pragma once
// WarpFewGroups: the fact kernel's mode 5, a tile's selected rows aggregated into a
// few groups (TPC-H Q1: 6 group ids) without a shared-memory atomic per row. Mode 1
// issues one atomic per row and aggregate, every thread of the block on the same few
// addresses, and those atomics serialize (measured: Q1 at SF 20, 16.5 ms for ~2 GB
// read). Here, per group id, a warp lists its rows of the group, its lanes fold the
// list's rows into registers, the warp reduces the 32 partials with shuffles (exactly:
// 64-bit wrap-around sums, 128-bit sums as low word + high word with carries,
// MIN/MAX), and lane 0 adds the result into the block's shared accumulators: one
// atomic per (warp, group present in the warp, aggregate) per tile instead of one per
// row.
#include "exec/cuda/block/aggregate.cuh"

namespace raydb::exec::cuda::block {

constexpr unsigned kFullWarp = 0xffffffffu;

// Warp-wide reductions: every lane of the warp calls them, every lane gets the result.
// Sums mod 2^64: exact whenever the host proved the total fits (a narrow SUM).
__device__ __forceinline__ unsigned long long warp_sum64(unsigned long long v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(kFullWarp, v, o);
  return v;
}

// Sums mod 2^128 of (lo, hi) pairs: the low words' carry goes to the high word.
__device__ __forceinline__ void warp_sum128(unsigned long long& lo, unsigned long long& hi) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    const unsigned long long olo = __shfl_xor_sync(kFullWarp, lo, o);
    const unsigned long long ohi = __shfl_xor_sync(kFullWarp, hi, o);
    const unsigned long long s = lo + olo;
    hi += ohi + (s < lo ? 1ull : 0ull);
    lo = s;
  }
}

__device__ __forceinline__ long long warp_min64(long long v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v = min(v, (long long)__shfl_xor_sync(kFullWarp, v, o));
  return v;
}

__device__ __forceinline__ long long warp_max64(long long v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v = max(v, (long long)__shfl_xor_sync(kFullWarp, v, o));
  return v;
}

// One value into a thread's running accumulator, as mode 0 folds into its registers.
__device__ __forceinline__ void fold_register(const DevAgg& a, unsigned long long& lo, unsigned long long& hi,
                                              int64_t v) {
  if (a.func == kAggSum) {
    const unsigned long long u = (unsigned long long)v;
    lo += u;
    hi += (v < 0 ? ~0ull : 0ull) + (lo < u ? 1ull : 0ull);
  } else if (a.func == kAggMin) {
    if (v < (long long)lo) lo = (unsigned long long)v;
  } else if (v > (long long)lo) {
    lo = (unsigned long long)v;
  }
}

// The warp's partials (lo, hi) of one aggregate reduced and added by lane 0 into the
// shared accumulator at s_lo (s_hi: its high word when wide). a.func and a.wide are
// the same for every lane, so every lane takes the same branch.
__device__ __forceinline__ void warp_flush(const DevAgg& a, unsigned long long* s_lo, unsigned long long* s_hi,
                                           unsigned long long lo, unsigned long long hi) {
  const bool leader = (threadIdx.x & 31) == 0;
  if (a.func == kAggSum) {
    if (a.wide) {
      warp_sum128(lo, hi);
      if (leader && (lo | hi)) add128(s_lo, s_hi, lo, hi);
    } else {
      lo = warp_sum64(lo);
      if (leader && lo) atomicAdd(s_lo, lo);
    }
  } else if (a.func == kAggMin) {
    const long long m = warp_min64((long long)lo);
    if (leader) atomicMin(reinterpret_cast<long long*>(s_lo), m);
  } else {
    const long long m = warp_max64((long long)lo);
    if (leader) atomicMax(reinterpret_cast<long long*>(s_lo), m);
  }
}

// The identity a MIN/MAX/SUM accumulator starts from.
__device__ __forceinline__ unsigned long long few_init(const DevAgg& a) {
  return a.func == kAggMin ? 0x7fffffffffffffffull : a.func == kAggMax ? 0x8000000000000000ull : 0ull;
}

// A warp's rows in a tile, and the per-warp lists of tile-relative rows the mode keeps
// in static shared memory (only its kernels declare them): launch_star leaves them out
// of the budget for lookup arrays, so the block keeps its share of the SM.
constexpr int kWarpRows = 32 * kItems;
// Group ids are kept as nibbles (kernel_params.h kMaxFewGroups); 15 marks no group.
constexpr uint32_t kNoGroup = 15;
static_assert(kMaxFewGroups <= kNoGroup);
constexpr size_t kFewListBytes = size_t(kBlock / 32) * kWarpRows * sizeof(uint16_t);

// Inclusive prefix sum over the warp's lanes.
__device__ __forceinline__ uint32_t warp_inclusive_sum(uint32_t v) {
  const unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    const uint32_t t = __shfl_up_sync(kFullWarp, v, o);
    if (lane >= unsigned(o)) v += t;
  }
  return v;
}

// A tile's selected items (`sel`, group ids `gid`) into the block's shared
// accumulators: smem[g] counts rows, aggregate a's words lie at smem + slot * G (+ G:
// the high words when wide), the layout of mode 1. Every lane of every warp must call
// it (the last tile's lanes without rows too): the group loop and the reductions are
// warp-uniform. Per group id the warp lists its rows of that group (each lane's at its
// prefix-sum offset) and its lanes take the list 32 rows at a time, so a lane's share
// does not depend on how its own 16 items split over the groups (walking each lane's
// own items would run every group as long as its busiest lane). Each row's values
// are evaluated once per aggregate, as in mode 1.
template <Layout L>
__device__ __forceinline__ void few_groups_tile(const StarParams& p, unsigned long long* smem, uint64_t G,
                                                uint64_t base, uint32_t sel, const uint32_t (&gid)[kItems]) {
  __shared__ uint16_t lists[kBlock / 32][kWarpRows];
  uint16_t* list = lists[threadIdx.x / 32];
  const unsigned lane = threadIdx.x & 31;
  // Item i's group id in nibble i (kNoGroup: not selected): two registers across the
  // group loop instead of 16 (with gid live the kernel spilled to local memory).
  uint64_t nibbles = 0;
#pragma unroll
  for (int i = 0; i < kItems; i++) nibbles |= uint64_t(((sel >> i) & 1u) ? gid[i] : kNoGroup) << (4 * i);
  bool counts_only = true;  // then no row's value is read (TPC-H Q4: count(*) per priority)
#pragma unroll 1
  for (int a = 0; a < p.naggs; a++) counts_only = counts_only && p.aggs[a].func == kAggCount;
#pragma unroll 1
  for (uint32_t g = 0; g < uint32_t(G); g++) {
    uint32_t m = 0;  // this lane's items in group g
#pragma unroll
    for (int i = 0; i < kItems; i++) m |= uint32_t(((nibbles >> (4 * i)) & 15u) == g) << i;
    const uint32_t mine = uint32_t(__popc(m));
    const uint32_t upto = warp_inclusive_sum(mine);
    const uint32_t n = __shfl_sync(kFullWarp, upto, 31);  // the warp's rows in group g
    if (n == 0) continue;
    if (lane == 0) atomicAdd(smem + g, (unsigned long long)n);
    if (counts_only) continue;
    uint32_t at = upto - mine;
#pragma unroll 1
    for (uint32_t rest = m; rest; rest &= rest - 1)
      list[at++] = uint16_t(item_row<L>(base, __ffs(int(rest)) - 1) - base);  // < kTile: fits 16 bits
    __syncwarp();
#pragma unroll 1
    for (int a = 0; a < p.naggs; a++) {
      const DevAgg& ag = p.aggs[a];
      if (ag.func == kAggCount) continue;
      unsigned long long lo = few_init(ag), hi = 0;
#pragma unroll 1
      for (uint32_t j = lane; j < n; j += 32) {
        const uint64_t row = base + list[j];
        const int64_t v =
            ag.shape != kShapeProgram ? eval_shaped<L>(ag, p.cols, row) : eval_program<L>(ag, p.cols, row);
        fold_register(ag, lo, hi, v);
      }
      unsigned long long* s_lo = smem + uint64_t(ag.slot) * G + g;
      warp_flush(ag, s_lo, ag.wide ? s_lo + G : nullptr, lo, hi);
    }
    __syncwarp();  // every lane has read the list before the next group writes it
  }
}

}  // namespace raydb::exec::cuda::block
