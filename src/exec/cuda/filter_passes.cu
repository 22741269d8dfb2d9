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
  unsigned long long* count = nullptr;  // FilterPassJob::count, or none
};

// Adds every thread's n to *count with one atomic per block (warp sums, then the
// block's in shared memory): atomics per warp or per chunk would queue on one
// address. Every thread of the block must call it (it synchronizes the block).
__device__ __forceinline__ void add_count(unsigned long long* count, unsigned n) {
  __shared__ unsigned long long warp_sum[32];
  unsigned long long v = n;  // a block's sum may pass 2^32
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long t = 0;
    for (unsigned w = 0; w < (blockDim.x + 31) / 32; w++) t += warp_sum[w];
    if (t) atomicAdd(count, t);
  }
}

// The rows of a blocked tile that exist (the last tile may be partial).
__device__ __forceinline__ uint32_t valid_items(uint64_t first, uint64_t rows) {
  if (first + kItems <= rows) return 0xffffu;
  return first >= rows ? 0u : (1u << unsigned(rows - first)) - 1u;
}

// One leaf over every row, blocked tiles: thread t of the tile at `base` holds rows
// base + 16 t .. + 15, so its mask is chunk base / 16 + t of the bit array (a warp
// writes 64 contiguous bytes). KIND 0: a range or set predicate; 1: a semi-linear
// sum in int64; 2: the same in 128 bits (exactness as in the fused kernel); 3: a
// two-term sum of stored words (pair_items).
template <typename V, int KIND>
__global__ void __launch_bounds__(kBlock) leaf_kernel(const __grid_constant__ LeafParams p) {
  const uint64_t tiles = (p.rows + kTile - 1) / kTile;
  unsigned passed = 0;  // < 2^32: a thread sees at most rows / gridDim.x rows
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
    } else if constexpr (KIND == 3) {
      m = pair_items<V, Layout::kBlocked>(p.linear, p.cols, base, sel);
    } else {
      m = linear_items<__int128, V, Layout::kBlocked>(p.linear, p.cols, base, sel);
    }
    p.out[(base >> 4) + threadIdx.x] = uint16_t(m & sel);
    passed += __popc(m & sel);
  }
  if (p.count) add_count(p.count, passed);
}

struct CombineParams {
  DevTree trees[kMaxTrees];
  int32_t ntrees = 0, nsets = 0;
  const uint16_t* leaves[kMaxTreeLeaves] = {};
  const uint16_t* linears[kMaxLinears] = {};
  const uint16_t* sets[kMaxFactPreds] = {};
  uint64_t rows = 0, chunks = 0;
  uint16_t* out = nullptr;
  unsigned long long* count = nullptr;  // FilterPassJob::count, or none
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

// Rows 128 g .. + 127: their bits written, the number that pass returned.
__device__ __forceinline__ unsigned combine_group(const CombineParams& p, uint64_t g) {
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
  return unsigned(__popcll(m.lo) + __popcll(m.hi));
}

__global__ void combine_kernel(const __grid_constant__ CombineParams p) {
  const uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned passed = g * 8 < p.chunks ? combine_group(p, g) : 0u;
  if (p.count) add_count(p.count, passed);  // every thread of the block takes part
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
  // One leaf and nothing to combine it with (a single set, or a tree that is one
  // leaf): the leaf writes the kernel's bits itself, one launch and a pass over the
  // bit arrays fewer. Its bits past the last row are 0 as combine_kernel's would be
  // (leaf_kernel masks them with the valid rows, and covers every chunk).
  const bool alone = job.nsets + (job.trees ? job.nleaves + job.nlinears : 0) == 1 &&
                     (!job.trees || (job.trees->ntrees == 1 && job.trees->trees[0].nsteps == 1));
  lp.count = alone ? job.count : nullptr;
  auto take = [&] {
    if (alone) return job.out;
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
      else if (lp.linear.stored && lp.linear.nterms == 2) launch_leaf_any<3>(lp, narrow, stream);
      else launch_leaf_any<1>(lp, narrow, stream);
    }
    cp.ntrees = t.ntrees;
    for (int k = 0; k < t.ntrees; k++) cp.trees[k] = t.trees[k];
  }
  if (alone) return;
  cp.rows = job.rows;
  cp.chunks = job.chunks;
  cp.out = job.out;
  cp.count = job.count;
  combine_kernel<<<gpu::item_blocks(job.chunks / 8), gpu::kThreads, 0, stream>>>(cp);
}

}  // namespace raydb::exec::cuda
