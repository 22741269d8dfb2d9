#pragma once
// BlockAggregate: evaluates an aggregate's register program for one row and folds
// the value into per-group accumulators (shared or global memory), exactly:
// 64-bit sums wrap (the host proved the total fits), 128-bit sums add the low word
// atomically and carry into the high word, MIN/MAX use 64-bit atomics.
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

__device__ __forceinline__ int64_t reg(int r, int64_t r0, int64_t r1, int64_t r2, int64_t r3) {
  return r == 0 ? r0 : r == 1 ? r1 : r == 2 ? r2 : r3;
}

// Runs the program; the host proved every step stays within int64, so the unsigned
// arithmetic below (no undefined overflow) gives the exact values.
template <Layout L>
__device__ __forceinline__ int64_t eval_program(const DevAgg& a, const DevColumn* cols, uint64_t row) {
  int64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  for (int k = 0; k < a.nins; k++) {
    const DevInstr& in = a.ins[k];
    const int64_t x = reg(in.a, r0, r1, r2, r3), y = reg(in.b, r0, r1, r2, r3);
    int64_t z;
    switch (in.op) {
      case kOpLoad:
        z = value_of(cols[in.col], load_row<L>(cols[in.col], row));
        break;
      case kOpConst: z = in.k; break;
      case kOpAdd: z = int64_t(uint64_t(x) + uint64_t(y)); break;
      case kOpSub: z = int64_t(uint64_t(x) - uint64_t(y)); break;
      case kOpMul: z = int64_t(uint64_t(x) * uint64_t(y)); break;
      default: z = int64_t(0 - uint64_t(x)); break;
    }
    if (in.dst == 0) r0 = z;
    else if (in.dst == 1) r1 = z;
    else if (in.dst == 2) r2 = z;
    else r3 = z;
  }
  return r0;
}

// A shaped aggregate's argument for one row (launch_star's classify): column a, or
// a (*, -, +) b, both loads issued before either is used (the interpreter runs them one
// after the other and reads its instructions from parameter space).
template <Layout L>
__device__ __forceinline__ int64_t eval_shaped(const DevAgg& a, const DevColumn* cols, uint64_t row) {
  const DevColumn& ca = cols[a.ca];
  const DevColumn& cb = cols[a.cb];
  const int shape = a.shape;
  const uint64_t sa = load_row<L>(ca, row);
  const uint64_t sb = shape != kShapeCol ? load_row<L>(cb, row) : 0ull;
  const uint64_t xa = uint64_t(value_of(ca, sa));
  if (shape == kShapeCol) return int64_t(xa);
  const uint64_t xb = uint64_t(value_of(cb, sb));
  return int64_t(shape == kShapeMul ? xa * xb : shape == kShapeSub ? xa - xb : xa + xb);
}

// A tile holding at least this many selected rows is folded from vector loads.
constexpr int kDenseTile = 8;

// One group's aggregate over the selected rows of a dense tile (the fused kernel's
// mode 0, shaped aggregates): the columns' values come from whole 16-byte vector
// loads (with_width) instead of one scalar load per row, then fold into the thread's
// registers exactly as the per-row loop does (SUM in 128 bits: low word and high
// word with carry; MIN/MAX).
template <typename V, Layout L>
__device__ __forceinline__ void tile_fold(const DevAgg& a, const DevColumn* cols, uint64_t base, uint32_t mask,
                                          unsigned long long& lo, unsigned long long& hi) {
  const DevColumn& ca = cols[a.ca];
  const DevColumn& cb = cols[a.cb];
  V va[kItems], vb[kItems];
  with_width<V, L>(ca, base, mask, va);
  if (a.shape != kShapeCol) with_width<V, L>(cb, base, mask, vb);
#pragma unroll
  for (int i = 0; i < kItems; i++) {
    if (!((mask >> i) & 1u)) continue;
    const uint64_t xa = uint64_t(value_of(ca, uint64_t(va[i])));
    uint64_t x = xa;
    if (a.shape != kShapeCol) {
      const uint64_t xb = uint64_t(value_of(cb, uint64_t(vb[i])));
      x = a.shape == kShapeMul ? xa * xb : a.shape == kShapeSub ? xa - xb : xa + xb;
    }
    const int64_t v = int64_t(x);
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
}

// 128-bit add of (lo, hi) into *plo, *phi with atomics: the carry of the low-word
// addition goes to the high word. Additions commute mod 2^128, so the total is
// exact whatever the interleaving.
__device__ __forceinline__ void add128(unsigned long long* plo, unsigned long long* phi, unsigned long long lo,
                                       unsigned long long hi) {
  unsigned long long old = atomicAdd(plo, lo);
  unsigned long long carry = (old + lo) < old ? 1ull : 0ull;
  if (hi + carry) atomicAdd(phi, hi + carry);
}

__device__ __forceinline__ void fold(const DevAgg& a, unsigned long long* lo, unsigned long long* hi, int64_t v) {
  switch (a.func) {
    case kAggSum:
      if (a.wide)
        add128(lo, hi, (unsigned long long)v, v < 0 ? ~0ull : 0ull);
      else
        atomicAdd(lo, (unsigned long long)v);
      break;
    case kAggMin: atomicMin(reinterpret_cast<long long*>(lo), (long long)v); break;
    case kAggMax: atomicMax(reinterpret_cast<long long*>(lo), (long long)v); break;
    default: break;
  }
}

}  // namespace raydb::exec::cuda::block
