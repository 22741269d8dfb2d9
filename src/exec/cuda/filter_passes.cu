// Filter passes: the fact kernel's boolean trees and device-memory sets evaluated
// before it, one small kernel per leaf and one combining pass, into a bit per row
// (StarParams::filter_bits). Inside the fused kernel the same trees ran through a
// called function that spilled (the kernel holds the probes' and aggregates'
// registers too): 18-20 M local-memory requests per query at 10^8 rows, 2-3x the
// bandwidth floor. A leaf kernel holds only its own loads, so it streams its columns
// at bandwidth; the bit arrays add 2 bytes per 16 rows per leaf.
#include <algorithm>

#include "exec/cuda/block/load.cuh"
#include "exec/cuda/block/pred.cuh"
#include "exec/cuda/kernels.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda {

using namespace block;

namespace {

struct LeafParams {
  DevColumn cols[kMaxFactColumns];
  DevPred pred;      // kind 0
  DevLinear linear;  // kind 1
  uint64_t rows = 0;
  uint16_t* out = nullptr;
};

// The rows of a blocked tile that exist (the last tile may be partial).
__device__ __forceinline__ uint32_t valid_items(uint64_t first, uint64_t rows) {
  if (first + kItems <= rows) return 0xffffu;
  return first >= rows ? 0u : (1u << unsigned(rows - first)) - 1u;
}

// One leaf over every row, blocked tiles: thread t of the tile at `base` holds rows
// base + 16 t .. + 15, so its mask is chunk base / 16 + t of the bit array (a warp
// writes 64 contiguous bytes). KIND 0: a range or set predicate; 1: a semi-linear
// sum in int64; 2: the same in 128 bits (exactness as in the fused kernel).
template <typename V, int KIND>
__global__ void __launch_bounds__(kBlock) leaf_kernel(const __grid_constant__ LeafParams p) {
  const uint64_t tiles = (p.rows + kTile - 1) / kTile;
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const uint64_t base = tile * kTile;
    const uint32_t sel = valid_items(item_row<Layout::kBlocked>(base, 0), p.rows);
    uint32_t m = 0;
    if constexpr (KIND == 0) {
      V v[kItems];
      with_width<V, Layout::kBlocked>(p.cols[p.pred.col], base, sel, v);
      const DevPred& d = p.pred;
      m = d.ranges || d.bitmap || d.hash ? set_items<V, true>(d, v, sel) : inline_items<V>(d, v);
    } else if constexpr (KIND == 1) {
      m = linear_items<long long, V, Layout::kBlocked>(p.linear, p.cols, base, sel);
    } else {
      m = linear_items<__int128, V, Layout::kBlocked>(p.linear, p.cols, base, sel);
    }
    p.out[(base >> 4) + threadIdx.x] = uint16_t(m & sel);
  }
}

struct CombineParams {
  DevTree trees[kMaxTrees];
  int32_t ntrees = 0, nsets = 0;
  const uint16_t* leaves[kMaxTreeLeaves] = {};
  const uint16_t* linears[kMaxLinears] = {};
  const uint16_t* sets[kMaxFactPreds] = {};
  uint64_t rows = 0, chunks = 0;
  uint16_t* out = nullptr;
};

// 128 rows (8 chunks, one 16-byte load per bit array) per thread: the sets ANDed,
// each tree's postfix steps run on a stack of 128-bit masks (two 64-bit halves per
// slot, kMaxTreeDepth slots in registers: push and pop move every slot by a constant
// index), the trees ANDed. Bit i of a 64-bit half is row 64 h + i of the group: the
// chunks are little-endian uint16 words. Rows past the end come out 0. (One chunk
// per thread with 2-byte loads took 54 us at 10^8 rows for three leaves.)
struct Mask128 {
  unsigned long long lo = 0, hi = 0;
};

__device__ __forceinline__ Mask128 load128(const uint16_t* bits, uint64_t g) {
  const ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2*>(bits) + g);
  return {v.x, v.y};
}

__global__ void combine_kernel(const __grid_constant__ CombineParams p) {
  const uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;  // rows 128 g .. + 127
  if (g * 8 >= p.chunks) return;
  Mask128 m;
  const uint64_t first = g * 128;
  const uint64_t n = first >= p.rows ? 0 : p.rows - first;  // valid rows in the group
  m.lo = n >= 64 ? ~0ull : (1ull << n) - 1ull;
  m.hi = n >= 128 ? ~0ull : n <= 64 ? 0ull : (1ull << (n - 64)) - 1ull;
  for (int k = 0; k < p.nsets; k++) {
    const Mask128 s = load128(p.sets[k], g);
    m.lo &= s.lo, m.hi &= s.hi;
  }
  for (int t = 0; t < p.ntrees; t++) {
    const DevTree& tr = p.trees[t];
    Mask128 st[kMaxTreeDepth];
    for (int s = 0; s < tr.nsteps; s++) {
      const uint8_t op = tr.op[s];
      if (op == kTreeRange || op == kTreeLinear) {
        const Mask128 leaf = load128(op == kTreeRange ? p.leaves[tr.arg[s]] : p.linears[tr.arg[s]], g);
#pragma unroll
        for (int i = kMaxTreeDepth - 1; i > 0; i--) st[i] = st[i - 1];
        st[0] = leaf;
      } else if (op == kTreeNot) {
        st[0].lo = ~st[0].lo, st[0].hi = ~st[0].hi;
      } else {
        const Mask128 top = st[0];
#pragma unroll
        for (int i = 0; i < kMaxTreeDepth - 1; i++) st[i] = st[i + 1];
        if (op == kTreeAnd)
          st[0].lo &= top.lo, st[0].hi &= top.hi;
        else
          st[0].lo |= top.lo, st[0].hi |= top.hi;
      }
    }
    m.lo &= st[0].lo, m.hi &= st[0].hi;
  }
  reinterpret_cast<ulonglong2*>(p.out)[g] = make_ulonglong2(m.lo, m.hi);
}

template <typename K>
unsigned resident_grid(K kernel, uint64_t tiles) {
  int per_sm = 1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0);
  return unsigned(std::min<uint64_t>(tiles, uint64_t(std::max(per_sm, 1)) * gpu::sm_count()));
}

template <typename V, int KIND>
void launch_leaf(const LeafParams& p, cudaStream_t stream) {
  const uint64_t tiles = (p.rows + kTile - 1) / kTile;
  leaf_kernel<V, KIND><<<resident_grid(leaf_kernel<V, KIND>, tiles), kBlock, 0, stream>>>(p);
}

// 32-bit loads when every column the leaf reads is at most 4 bytes wide (the stored
// values then fit; sets compare in 64 bits either way).
template <int KIND>
void launch_leaf_any(const LeafParams& p, bool narrow, cudaStream_t stream) {
  if (narrow) return launch_leaf<uint32_t, KIND>(p, stream);
  launch_leaf<uint64_t, KIND>(p, stream);
}

}  // namespace

void launch_filter_passes(const FilterPassJob& job, cudaStream_t stream) {
  if (job.rows == 0) return;
  LeafParams lp;
  for (int c = 0; c < kMaxFactColumns; c++) lp.cols[c] = job.cols[c];
  lp.rows = job.rows;
  CombineParams cp;
  uint16_t* next = job.scratch;
  auto take = [&] {
    uint16_t* b = next;
    next += job.chunks;
    return b;
  };
  for (int k = 0; k < job.nsets; k++) {
    lp.pred = job.sets[k];
    lp.out = take();
    cp.sets[cp.nsets++] = lp.out;
    launch_leaf_any<0>(lp, job.cols[lp.pred.col].width <= 4, stream);
  }
  if (job.trees) {
    const DevTrees& t = *job.trees;
    for (int k = 0; k < job.nleaves; k++) {
      lp.pred = t.leaves[k];
      lp.out = take();
      cp.leaves[k] = lp.out;
      launch_leaf_any<0>(lp, job.cols[lp.pred.col].width <= 4, stream);
    }
    for (int k = 0; k < job.nlinears; k++) {
      lp.linear = t.linears[k];
      lp.out = take();
      cp.linears[k] = lp.out;
      bool narrow = true;
      for (int i = 0; i < lp.linear.nterms; i++) narrow = narrow && job.cols[lp.linear.col[i]].width <= 4;
      if (lp.linear.wide) launch_leaf_any<2>(lp, narrow, stream);
      else launch_leaf_any<1>(lp, narrow, stream);
    }
    cp.ntrees = t.ntrees;
    for (int k = 0; k < t.ntrees; k++) cp.trees[k] = t.trees[k];
  }
  cp.rows = job.rows;
  cp.chunks = job.chunks;
  cp.out = job.out;
  combine_kernel<<<gpu::item_blocks(job.chunks / 8), gpu::kThreads, 0, stream>>>(cp);
}

}  // namespace raydb::exec::cuda
