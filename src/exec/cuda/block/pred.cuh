#pragma once
// BlockPred: fact-table filters on a tile.
//   pred_tile   a range predicate (a set of inclusive ranges of stored values,
//               compiled on the host from the SQL constants, exactly);
//   tree_tile   a boolean combination of range and semi-linear leaves (postfix,
//               exec/core/filter_program.h), each leaf a bit mask over the tile.
#include "exec/core/cuckoo_set.h"
#include "exec/core/perfect_set.h"
#include "exec/cuda/block/load.cuh"

namespace raydb::exec::cuda::block {

// Sorted disjoint pairs (lo, hi): bisection for the last lo <= v.
__device__ __forceinline__ bool in_sorted_ranges(const uint64_t* r, int n, uint64_t v) {
  int a = 0, b = n;
  while (a < b) {
    const int m = (a + b) / 2;
    if (__ldg(r + 2 * m) <= v) a = m + 1;
    else b = m;
  }
  return a > 0 && v <= __ldg(r + 2 * (a - 1) + 1);
}

// Items of v whose stored value lies in p's inline ranges, as a mask (the bits of
// unselected items are don't-cares). With V = uint32_t the host has clamped the
// ranges to 32 bits (launch_star); one unsigned compare per item and range:
// lo <= v <= hi iff v - lo <= hi - lo (mod 2^n); an empty range (lo > hi, the host's
// "never true") is skipped.
template <typename V>
__device__ __forceinline__ uint32_t inline_items(const DevPred& p, const V (&v)[kItems]) {
  uint32_t ok = 0;
  for (int k = 0; k < p.nranges; k++) {
    if (p.lo[k] > p.hi[k]) continue;
    const V lo = V(p.lo[k]), span = V(p.hi[k] - p.lo[k]);
#pragma unroll
    for (int i = 0; i < kItems; i++) ok |= uint32_t(V(v[i] - lo) <= span) << i;
  }
  return ok;
}

// The same for a set in device memory (DevPred::ranges or bitmap): pairs compared in
// order (one broadcast load per pair), a bitmap probe, or bisection; the bitmap and
// bisection read only for selected items (L1/L2-resident: a few KB).
// UNROLLED: the bisection unrolled over the items too (a standalone filter pass, whose
// code size does not matter; a runtime item index would put v in local memory).
template <typename V, bool UNROLLED = false>
__device__ __forceinline__ uint32_t set_items(const DevPred& p, const V (&v)[kItems], uint32_t sel) {
  uint32_t ok = 0;
  if (p.hash) {  // the prefilter's bit, then two independent probes for the items it lets through
#pragma unroll
    for (int i = 0; i < kItems; i++) {
      const uint64_t x = uint64_t(v[i]);
      const uint32_t f = cuckoo_filter_bit(x, p.hash_mul0, p.hash_filter_bits);
      if (!((sel >> i) & 1u) || !((__ldg(p.hash_filter + (f >> 5)) >> (f & 31)) & 1u)) continue;
      const uint32_t shift = 64 - p.hash_bits;
      const uint64_t a = __ldg(p.hash + cuckoo_slot(x, p.hash_mul0, shift));
      const uint64_t b = __ldg(p.hash + (uint64_t(1) << p.hash_bits) + cuckoo_slot(x, p.hash_mul1, shift));
      ok |= uint32_t(a == x || b == x) << i;
    }
  } else if (p.bitmap) {
#pragma unroll
    for (int i = 0; i < kItems; i++) {
      const uint64_t off = uint64_t(v[i]) - p.bm_lo;  // below bm_lo wraps past bm_bits
      bool hit = false;
      if (((sel >> i) & 1u) && off < p.bm_bits) hit = (__ldg(p.bitmap + (off >> 5)) >> (off & 31)) & 1u;
      ok |= uint32_t(hit) << i;
    }
  } else if (p.nranges <= kScanRangesLimit) {
#pragma unroll 1
    for (int k = 0; k < p.nranges; k++) {
      const uint64_t lo = __ldg(p.ranges + 2 * k), span = __ldg(p.ranges + 2 * k + 1) - lo;
#pragma unroll
      for (int i = 0; i < kItems; i++) ok |= uint32_t(uint64_t(v[i]) - lo <= span) << i;
    }
  } else if constexpr (UNROLLED) {
#pragma unroll
    for (int i = 0; i < kItems; i++)
      if ((sel >> i) & 1u) ok |= uint32_t(in_sorted_ranges(p.ranges, p.nranges, uint64_t(v[i]))) << i;
  } else {
#pragma unroll 1
    for (int i = 0; i < kItems; i++)
      if ((sel >> i) & 1u) ok |= uint32_t(in_sorted_ranges(p.ranges, p.nranges, uint64_t(v[i]))) << i;
  }
  return ok;
}

// Items of v in a perfect-hash point set (table in shared memory): one multiply, one
// load and one compare per item whatever the set's length; every item is looked up
// (no branch on sel: its unselected bits are don't-cares), and a 32-bit entry equals
// only a value below 2^32.
template <typename V>
__device__ __forceinline__ uint32_t perfect_items(const DevPred& p, const uint32_t* table, const V (&v)[kItems]) {
  uint32_t ok = 0;
#pragma unroll
  for (int i = 0; i < kItems; i++)
    ok |= uint32_t(uint64_t(table[perfect_slot(uint64_t(v[i]), p.pset_mul, p.pset_bits)]) == uint64_t(v[i])) << i;
  return ok;
}

// EXT: the kernel was instantiated for long sets and boolean trees (star_kernel's
// EXT); without it only inline ranges exist, and the kernel's code stays as small as
// before sets existed (its instruction footprint is what the SSB queries feel).
// pset: the perfect-hash table of p (star kernel predicates only; tree leaves pass none).
template <typename V, bool EXT>
__device__ __forceinline__ uint32_t pred_items(const DevPred& p, const V (&v)[kItems], uint32_t sel,
                                               const uint32_t* pset = nullptr) {
  if (pset) return perfect_items<V>(p, pset, v);
  if constexpr (EXT) {
    if (p.bitmap || p.ranges || p.hash) return set_items<V>(p, v, sel);
  }
  return inline_items<V>(p, v);
}

// smem: the kernel's dynamic shared memory, where launch_star placed p's perfect set.
template <typename V, Layout L, bool EXT>
__device__ __forceinline__ void pred_tile(const DevPred& p, const DevColumn& c, uint64_t base, uint32_t& sel,
                                          const void* smem) {
  V v[kItems];
  with_width<V, L>(c, base, sel, v);
  const uint32_t* pset = nullptr;
  if (p.pset_bits)
    pset = p.pset_shared_off >= 0
               ? reinterpret_cast<const uint32_t*>(static_cast<const char*>(smem) + p.pset_shared_off)
               : p.pset;
  sel &= pred_items<V, EXT>(p, v, sel, pset);
}

template <typename S>
__device__ __forceinline__ bool compare_zero(int op, S d) {
  switch (op) {
    case kCmpEq: return d == 0;
    case kCmpNe: return d != 0;
    case kCmpLt: return d < 0;
    case kCmpLe: return d <= 0;
    case kCmpGt: return d > 0;
    default: return d >= 0;
  }
}

// One term's value of a loaded item: the stored word itself when the host folded
// the columns' bases into k (DevLinear::stored), else the decoded SQL value.
template <typename S, typename V>
__device__ __forceinline__ S term_value(const DevLinear& f, const DevColumn& c, V v) {
  if (sizeof(S) == 8 && f.stored) return S(uint64_t(v));
  return S(value_of(c, uint64_t(v)));
}

// A semi-linear leaf: each term's column is loaded for the selected rows (the same
// vectors a range predicate would read) and accumulated per item. S is long long
// when the host proved no partial sum leaves int64 (DevLinear::wide = 0), else
// __int128 (exact: the host bounds the sum below 2^125).
template <typename S, typename V, Layout L>
__device__ __forceinline__ uint32_t linear_items(const DevLinear& f, const DevColumn* cols, uint64_t base,
                                                 uint32_t sel) {
  const S k = sizeof(S) == 8 ? S((long long)f.k_lo)
                             : S((__int128(f.k_hi) << 64) | __int128((unsigned long long)f.k_lo));
  S acc[kItems];
#pragma unroll
  for (int i = 0; i < kItems; i++) acc[i] = k;
#pragma unroll 1
  for (int t = 0; t < f.nterms; t++) {
    const DevColumn& c = cols[f.col[t]];
    V v[kItems];
    with_width<V, L>(c, base, sel, v);
    const S coef = S(f.coef[t]);
#pragma unroll
    for (int i = 0; i < kItems; i++) acc[i] += coef * term_value<S, V>(f, c, v[i]);
  }
  uint32_t ok = 0;
#pragma unroll
  for (int i = 0; i < kItems; i++) ok |= uint32_t(compare_zero(f.op, acc[i])) << i;
  return ok & sel;
}

// A semi-linear leaf of two terms over stored words in 64 bits (DevLinear::stored,
// wide = 0: every comparison of two offset-encoded columns, `a < b` among them): both
// columns' vectors are loaded before either is used and no per-item sums are kept.
// Term by term (linear_items) a thread had one column's vectors in flight, and `a < b`
// ran at 1.7x its read floor on the H200 where two range leaves read together ran at
// 1.2x. The sum is formed in linear_items' order, (k + c0 v0) + c1 v1, whose partial
// sums the host proved to fit int64.
template <typename V, Layout L>
__device__ __forceinline__ uint32_t pair_items(const DevLinear& f, const DevColumn* cols, uint64_t base,
                                               uint32_t sel) {
  V v0[kItems], v1[kItems];
  with_width<V, L>(cols[f.col[0]], base, sel, v0);
  with_width<V, L>(cols[f.col[1]], base, sel, v1);
  const long long k = (long long)f.k_lo, m0 = f.coef[0], m1 = f.coef[1];
  uint32_t ok = 0;
#pragma unroll
  for (int i = 0; i < kItems; i++) {
    const long long x = k + m0 * (long long)uint64_t(v0[i]) + m1 * (long long)uint64_t(v1[i]);
    ok |= uint32_t(compare_zero(f.op, x)) << i;
  }
  return ok & sel;
}

// The 128-bit semi-linear leaf in a function of its own: its wide registers stay out
// of tree_mask's (the common leaves are ranges and 64-bit sums).
template <typename V, Layout L>
__device__ __noinline__ uint32_t wide_linear_mask(const DevLinear& f, const DevColumn* cols, uint64_t base,
                                                  uint32_t sel) {
  return linear_items<__int128, V, L>(f, cols, base, sel);
}

// A boolean tree over the tile: leaves load their columns for the rows still in
// `sel` (so a conjunct after selective ones reads little), masks combine on a small
// stack held in one 128-bit register (kMaxTreeDepth masks of kItems bits; push and
// pop are shifts, so the stack never goes to local memory). Not inlined: its leaves'
// registers stay out of the fact kernel's hot loop (which is capped for 4 blocks per
// SM); only the kernels instantiated for queries with trees call it (star_kernel's
// EXT).
static_assert(kMaxTreeDepth * kItems <= 128, "the tree stack is one 128-bit register");
template <typename V, Layout L>
__device__ __noinline__ uint32_t tree_mask(const DevTree& t, const DevPred* preds, const DevLinear* linears,
                                           const DevColumn* cols, uint64_t base, uint32_t sel) {
  using Stack = unsigned __int128;
  constexpr uint32_t kTop = (1u << kItems) - 1u;
  Stack stack = 0;
  for (int s = 0; s < t.nsteps; s++) {
    const int arg = t.arg[s];
    switch (t.op[s]) {
      case kTreeRange: {
        V v[kItems];
        with_width<V, L>(cols[preds[arg].col], base, sel, v);
        stack = (stack << kItems) | pred_items<V, true>(preds[arg], v, sel);
        break;
      }
      case kTreeLinear: {
        const uint32_t m = linears[arg].wide ? wide_linear_mask<V, L>(linears[arg], cols, base, sel)
                                             : linear_items<long long, V, L>(linears[arg], cols, base, sel);
        stack = (stack << kItems) | m;
        break;
      }
      case kTreeAnd: {
        const uint32_t top = uint32_t(stack) & kTop;
        stack >>= kItems;
        stack &= ~Stack(kTop) | Stack(top);
        break;
      }
      case kTreeOr: {
        const uint32_t top = uint32_t(stack) & kTop;
        stack >>= kItems;
        stack |= Stack(top);
        break;
      }
      default: stack ^= Stack(kTop); break;
    }
  }
  return uint32_t(stack) & kTop & sel;
}

}  // namespace raydb::exec::cuda::block
