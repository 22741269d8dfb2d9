// The CUDA backend's kernels. One translation unit keeps nvcc time down; the
// block-wide primitives live in block/*.cuh so the fact kernel reads like its plan.
#include <algorithm>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "exec/cuda/block/aggregate.cuh"
#include "exec/cuda/block/few_groups.cuh"
#include "exec/cuda/block/load.cuh"
#include "exec/cuda/block/pred.cuh"
#include "exec/cuda/block/probe.cuh"
#include "exec/cuda/group_keep.h"
#include "exec/cuda/kernels.h"
#include "gpu/launch.cuh"

#ifndef RAYDB_STAR_MIN_BLOCKS
#define RAYDB_STAR_MIN_BLOCKS 4  // blocks per SM the fact kernel's registers are capped for (run 5: 4 beat 3)
#endif

namespace raydb::exec::cuda {

using namespace block;

namespace {

constexpr int kStarMinBlocks = RAYDB_STAR_MIN_BLOCKS;
#ifndef RAYDB_PACKED_MIN_BLOCKS
#define RAYDB_PACKED_MIN_BLOCKS 3  // the packed instantiations: 80 registers, no spills (ptxas); at 4 they spilled
#endif
constexpr int kPackedMinBlocks = RAYDB_PACKED_MIN_BLOCKS;
#ifndef RAYDB_FEW_MIN_BLOCKS
#define RAYDB_FEW_MIN_BLOCKS 4  // mode 5's cap where the others take kStarMinBlocks (not yet measured against 3)
#endif
// Mode 5's blocks per SM: the kernels capped for kStarMinBlocks are capped for this
// instead (ptxas, blocked 32-bit kernel: at 4, 64 registers and ~120 bytes of spills,
// the outer loops' values by the look of it, where mode 1 spills 12; at 3, 80
// registers and none); the others keep theirs.
constexpr int few_min_blocks(int minb) { return minb == kStarMinBlocks ? RAYDB_FEW_MIN_BLOCKS : minb; }
constexpr long long kI64Max = 0x7fffffffffffffffll;
constexpr long long kI64Min = -kI64Max - 1;

__device__ __forceinline__ unsigned long long init_of(const DevAgg& a) {
  return a.func == kAggMin ? (unsigned long long)kI64Max : a.func == kAggMax ? (unsigned long long)kI64Min : 0ull;
}

__global__ void dim_build_kernel(const __grid_constant__ DimParams p) {
  const uint64_t row = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool pass = row < p.rows;
  if (pass) {
    for (int f = 0; f < p.nfilters && pass; f++)
      pass = in_sorted_ranges(p.filters[f].ranges, p.filters[f].nranges, load_stored(p.filters[f].col, row));
  }
  if (pass) {
    uint64_t local = 0;
    for (int g = 0; g < p.ngroups; g++) {
      const DimGroupPart& part = p.groups[g];
      local += uint64_t(value_of(part.col, load_stored(part.col, row)) - part.min) * part.mult;
    }
    const uint64_t key = uint64_t(value_of(p.key, load_stored(p.key, row)) - p.key_min);
    p.lookup[key] = int32_t(local);
    p.flags[local] = 1;  // every writer stores 1: a benign race
  }
  const int n = __syncthreads_count(pass);
  if (threadIdx.x == 0 && n) atomicAdd(p.passed, (unsigned long long)n);
}

constexpr int kRankBlock = 1024;
__global__ void __launch_bounds__(kRankBlock) dim_rank_kernel(const uint32_t* flags, uint64_t range, int32_t* dense,
                                                              int32_t* inv, unsigned long long* count) {
  using Scan = cub::BlockScan<int, kRankBlock>;
  __shared__ typename Scan::TempStorage tmp;
  __shared__ int carry;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (uint64_t base = 0; base < range; base += kRankBlock) {
    const uint64_t i = base + threadIdx.x;
    const int f = i < range && flags[i] ? 1 : 0;
    int pos, total;
    Scan(tmp).ExclusiveSum(f, pos, total);
    pos += carry;
    if (f) {
      dense[i] = pos;
      inv[pos] = int32_t(i);
    }
    __syncthreads();
    if (threadIdx.x == 0) carry += total;
    __syncthreads();
  }
  if (threadIdx.x == 0) *count = (unsigned long long)carry;
}

__global__ void dim_remap_kernel(int32_t* lookup, uint64_t n, const int32_t* dense) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    int32_t v = lookup[i];
    if (v >= 0) lookup[i] = dense[v];
  }
}

__global__ void translate_kernel(const int32_t* lookup, int64_t key_min, uint64_t key_range, const int64_t* decode,
                                 uint64_t n, int32_t* out) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    uint64_t k = uint64_t(decode[i] - key_min);
    out[i] = k < key_range ? lookup[k] : -1;
  }
}

// int32 lookup (code, -1 = filtered out) -> `W`-byte entries (code + 1, 0 = filtered out).
template <typename W>
__global__ void narrow_lookup_kernel(const int32_t* in, uint64_t n, W* out) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = W(in[i] + 1);
}

// The fused fact kernel: per tile, fact filters -> dimension probes -> fact GROUP BY
// keys -> aggregates, every step skipping the vectors with no selected row left.
// MODE 0: one group, per-thread registers; MODE 1: groups in shared memory;
// Lookup arrays and perfect-hash point sets placed in shared memory by launch_star,
// copied in 4-byte words (the device buffers are rounded up to 256 bytes, the shared
// area to 16); true when anything was copied (the caller synchronizes).
__device__ __forceinline__ bool copy_to_shared(const StarParams& p, unsigned long long* smem) {
  bool copied = false;
  for (int k = 0; k < p.npreds; k++) {
    const DevPred& d = p.preds[k];
    if (!d.pset_bits || d.pset_shared_off < 0) continue;
    uint32_t* dst = reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(smem) + d.pset_shared_off);
    for (uint32_t i = threadIdx.x; i < (1u << d.pset_bits); i += kBlock) dst[i] = __ldg(d.pset + i);
    copied = true;
  }
  for (int k = 0; k < p.njoins; k++) {
    const DevJoin& j = p.joins[k];
    if (j.shared_off < 0) continue;
    uint32_t* dst = reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(smem) + j.shared_off);
    const uint32_t* src = static_cast<const uint32_t*>(j.lookup);
    const uint64_t words = (j.size * uint64_t(j.width) + 3) / 4;
    for (uint64_t i = threadIdx.x; i < words; i += kBlock) dst[i] = __ldg(src + i);
    copied = true;
  }
  return copied;
}

// MODE 2: groups in global memory; MODE 3: rows' groups out; MODE 4: mode 0 without
// probes or GROUP BY keys; MODE 5: mode 1 for a few groups, each tile reduced per warp
// (block/few_groups.cuh) instead of an atomic per row. Modes 0, 1, 4 and 5 flush to
// global at the end.
// EXT: the query has boolean fact filters (p.trees) or sets in device memory (launched
// at 2 blocks per SM, see launch_star_v); kernels without them never call tree_mask
// nor carry the set code, so they keep the
// registers, stack and instruction footprint they had before either existed
// (measured: with both always compiled in, SSB at SF 20 took 7.9 ms instead of 5.8).
template <int MODE, typename V, int MINB, Layout L, bool EXT>
__global__ void __launch_bounds__(kBlock, MINB) star_kernel(const __grid_constant__ StarParams p) {
  // MODE 4: mode 0 without probes or GROUP BY keys (launch_star_t): no per-item group
  // ids or probe code, so it fits the 64-register cap without spilling on every tile.
  constexpr int M = MODE == 4 ? 0 : MODE == 5 ? 1 : MODE;
  constexpr bool PLAIN = MODE == 4;
  constexpr bool FEW = MODE == 5;  // mode 1's accumulators, filled per warp
  constexpr uint64_t TILE = uint64_t(kBlock) * kItems;
  extern __shared__ __align__(128) unsigned long long smem[];
  const uint64_t G = M == 0 ? 1 : (M == 1 ? p.groups : 0);
  // Aggregate a's shared accumulators (modes 0 and 1), computed from its slot where
  // used: an array of pointers indexed by a runtime aggregate number lived in local
  // memory, and every thread's stack writes cost L2 traffic at kernel start.
  const auto s_lo = [&](int a) { return smem + uint64_t(p.aggs[a].slot) * G; };
  const auto s_hi = [&](int a) { return p.aggs[a].wide ? s_lo(a) + G : nullptr; };
  const bool copied = copy_to_shared(p, smem);
  if (M >= 2 && copied) __syncthreads();
  if (M < 2) {
    for (uint64_t i = threadIdx.x; i < G; i += kBlock) smem[i] = 0;
    for (int a = 0; a < p.naggs; a++) {
      const unsigned long long init = init_of(p.aggs[a]);
      unsigned long long* lo = s_lo(a);
      unsigned long long* hi = s_hi(a);
      for (uint64_t i = threadIdx.x; i < G; i += kBlock) {
        lo[i] = init;
        if (hi) hi[i] = 0;
      }
    }
    __syncthreads();
  }
  // Mode 0's per-thread accumulators. Indexed by a runtime aggregate number they live
  // in local memory (L1): only the naggs in use are touched, so a COUNT-only scan
  // writes no stack at all.
  unsigned long long r_count = 0, r_lo[kMaxAggs], r_hi[kMaxAggs];
  uint32_t r_filtered = 0;  // < 2^32: fact tables have fewer rows (star_plan.cpp)
  if (M == 0) {
#pragma unroll 1
    for (int a = 0; a < p.naggs; a++) {
      r_lo[a] = init_of(p.aggs[a]);
      r_hi[a] = 0;
    }
  }

  const uint64_t tiles = (p.rows + TILE - 1) / TILE;
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const uint64_t base = tile * TILE;
    uint32_t gid[kItems];
    uint32_t mask = 0xffffu;  // bit i: item i still selected
    if (base + TILE > p.rows) {  // the last tile only
      mask = 0;
#pragma unroll
      for (int i = 0; i < kItems; i++) mask |= uint32_t(item_row<L>(base, i) < p.rows) << i;
    }
#pragma unroll
    for (int i = 0; i < kItems; i++) gid[i] = 0;
    for (int k = 0; k < p.npreds && mask; k++) pred_tile<V, L, EXT>(p.preds[k], p.cols[p.preds[k].col], base, mask, smem);
    if (p.filter_bits && mask) mask &= tile_bits<L>(p.filter_bits, base);
    if constexpr (EXT) {
      const DevTrees* t = p.trees;
      for (int k = 0; t && k < t->ntrees && mask; k++)
        mask = tree_mask<V, L>(t->trees[k], t->leaves, t->linears, p.cols, base, mask);
    }
    r_filtered += __popc(mask);
    if constexpr (!PLAIN) {
      for (int k = 0; k < p.njoins && mask; k++) {
        const void* lk = p.joins[k].shared_off >= 0 ? static_cast<const void*>(reinterpret_cast<const char*>(smem) +
                                                                              p.joins[k].shared_off)
                                                    : p.joins[k].lookup;
        probe_tile<V, L>(p.joins[k], lk, p.cols[p.joins[k].col], base, mask, gid);
      }
      for (int k = 0; k < p.nroot_groups && mask; k++)
        group_tile<V, L>(p.root_groups[k], p.cols[p.root_groups[k].col], base, mask, gid);
    }
    if constexpr (M == 3) {  // each row's group for the order statistics' selection
#pragma unroll
      for (int i = 0; i < kItems; i++) {
        const uint64_t row = item_row<L>(base, i);
        if (row >= p.rows) continue;
        const bool on = (mask >> i) & 1u;
        p.os_select[row] = on;
        p.os_gids[row] = on ? gid[i] : 0u;
      }
      continue;
    }
    // The aggregation code (a register-program interpreter per aggregate) is large:
    // run it once per selected row from a non-unrolled loop over a bit mask, so the
    // kernel's instruction footprint stays small (unrolling it per item thrashed the
    // instruction cache: measured 5.6 ms for q1.1 at SF 20 with 16 unrolled copies).
    if constexpr (FEW) {  // every lane of the block reaches this point in every tile
      few_groups_tile<L>(p, smem, G, base, mask, gid);
      continue;
    }
    if (M == 0 && p.count_only) {  // COUNT only, one group: no per-row work
      r_count += __popc(mask);
      mask = 0;
    }
    if (M == 0 && p.tile_aggs && __popc(mask) >= kDenseTile) {  // dense: fold from vector loads
      r_count += __popc(mask);
#pragma unroll 1
      for (int a = 0; a < p.naggs; a++) {
        if (p.aggs[a].func == kAggCount) continue;
        unsigned long long lo = r_lo[a], hi = r_hi[a];  // registers across the tile's 16 items
        tile_fold<V, L>(p.aggs[a], p.cols, base, mask, lo, hi);
        r_lo[a] = lo;
        r_hi[a] = hi;
      }
      mask = 0;
    }
#pragma unroll 1
    while (mask) {
      const int i = __ffs(int(mask)) - 1;
      mask &= mask - 1;
      const uint64_t row = item_row<L>(base, i);
      if (M == 0) {
        r_count++;
#pragma unroll 1
        for (int a = 0; a < p.naggs; a++) {
          const DevAgg& ag = p.aggs[a];
          if (ag.func == kAggCount) continue;
          const int64_t v =
              ag.shape != kShapeProgram ? eval_shaped<L>(ag, p.cols, row) : eval_program<L>(ag, p.cols, row);
          if (ag.func == kAggSum) {
            const unsigned long long u = (unsigned long long)v;
            r_lo[a] += u;
            r_hi[a] += (v < 0 ? ~0ull : 0ull) + (r_lo[a] < u ? 1ull : 0ull);
          } else if (ag.func == kAggMin) {
            if (v < (long long)r_lo[a]) r_lo[a] = (unsigned long long)v;
          } else if (v > (long long)r_lo[a]) {
            r_lo[a] = (unsigned long long)v;
          }
        }
      } else {
        uint32_t g = 0;  // gid[i] without a dynamic register index
#pragma unroll
        for (int k = 0; k < kItems; k++)
          if (k == i) g = gid[k];
        unsigned long long* cnt = M == 1 ? smem : p.acc.count;
        atomicAdd(cnt + g, 1ull);
#pragma unroll 1
        for (int a = 0; a < p.naggs; a++) {
          const DevAgg& ag = p.aggs[a];
          if (ag.func == kAggCount) continue;
          const int64_t v =
              ag.shape != kShapeProgram ? eval_shaped<L>(ag, p.cols, row) : eval_program<L>(ag, p.cols, row);
          if (M == 1)
            fold(ag, s_lo(a) + g, ag.wide ? s_hi(a) + g : nullptr, v);
          else
            fold(ag, p.acc.lo[a] + g, ag.wide ? p.acc.hi[a] + g : nullptr, v);
        }
      }
    }
  }
  for (int o = 16; o > 0; o /= 2) r_filtered += __shfl_down_sync(0xffffffffu, r_filtered, o);
  if ((threadIdx.x & 31) == 0 && r_filtered) atomicAdd(p.filtered, (unsigned long long)r_filtered);
  if (M >= 2) return;
  if (M == 0) {
    if (r_count) {
      atomicAdd(smem, r_count);
#pragma unroll
      for (int a = 0; a < kMaxAggs; a++) {
        if (a >= p.naggs) break;
        const DevAgg& ag = p.aggs[a];
        if (ag.func == kAggSum) {
          if (ag.wide)
            add128(s_lo(a), s_hi(a), r_lo[a], r_hi[a]);
          else
            atomicAdd(s_lo(a), r_lo[a]);
        } else if (ag.func == kAggMin) {
          atomicMin(reinterpret_cast<long long*>(s_lo(a)), (long long)r_lo[a]);
        } else if (ag.func == kAggMax) {
          atomicMax(reinterpret_cast<long long*>(s_lo(a)), (long long)r_lo[a]);
        }
      }
    }
  }
  __syncthreads();
  for (uint64_t g = threadIdx.x; g < G; g += kBlock) {
    const unsigned long long c = smem[g];
    if (!c) continue;
    atomicAdd(p.acc.count + g, c);
    for (int a = 0; a < p.naggs; a++) {
      const DevAgg& ag = p.aggs[a];
      if (ag.func == kAggSum) {
        if (ag.wide)
          add128(p.acc.lo[a] + g, p.acc.hi[a] + g, s_lo(a)[g], s_hi(a)[g]);
        else
          atomicAdd(p.acc.lo[a] + g, s_lo(a)[g]);
      } else if (ag.func == kAggMin) {
        atomicMin(reinterpret_cast<long long*>(p.acc.lo[a] + g), (long long)s_lo(a)[g]);
      } else if (ag.func == kAggMax) {
        atomicMax(reinterpret_cast<long long*>(p.acc.lo[a] + g), (long long)s_lo(a)[g]);
      }
    }
  }
}

// The compaction keeps group order (the host then finds the ids ascending and sorts
// nothing): a first pass records each warp's keep bits and each block's kept count,
// their exclusive scan gives each block its offset, and a second pass writes the kept
// groups of each block from there in group order, reading the bits, not the fields.
__device__ __forceinline__ bool compact_keep(const unsigned long long* const* fields, uint64_t groups,
                                             const DevGroupKeep& having, uint64_t g) {
  return g < groups && fields[0][g] != 0 && group_kept(having, fields, g);
}

__global__ void __launch_bounds__(gpu::kThreads)
    compact_count_kernel(const unsigned long long* const* fields, uint64_t groups, const DevGroupKeep having,
                         unsigned* bits, unsigned long long* counts) {
  const uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool keep = compact_keep(fields, groups, having, g);
  const unsigned mask = __ballot_sync(0xffffffffu, keep);
  if ((threadIdx.x & 31) == 0) bits[g >> 5] = mask;
  const int kept = __syncthreads_count(keep);
  if (threadIdx.x == 0) counts[blockIdx.x] = (unsigned long long)kept;
}

__global__ void __launch_bounds__(gpu::kThreads)
    compact_write_kernel(const unsigned long long* const* fields, int nfields, uint64_t capacity, const unsigned* bits,
                         const unsigned long long* offsets, const unsigned long long* counts, unsigned long long* out,
                         unsigned long long* gids, unsigned long long* n) {
  using Scan = cub::BlockScan<int, gpu::kThreads>;
  __shared__ typename Scan::TempStorage tmp;
  const uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool keep = (bits[g >> 5] >> (threadIdx.x & 31)) & 1u;  // 0 past the last group
  int pos = 0;
  Scan(tmp).ExclusiveSum(keep ? 1 : 0, pos);
  const unsigned long long base = offsets[blockIdx.x];
  if (keep) {
    const uint64_t p = base + uint64_t(pos);
    gids[p] = g;
    for (int f = 0; f < nfields; f++) out[uint64_t(f) * capacity + p] = fields[f][g];
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *n = base + counts[blockIdx.x];
}

// Order statistics on the star path: each row's value as a key input (value_of: the
// column's stored form decoded exactly; T = int32_t when the host proved it fits).
template <typename T>
__global__ void order_keys_kernel(const DevColumn c, uint64_t n, T* out) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = T(value_of(c, load_stored(c, i)));
}

__global__ void fill_kernel(unsigned long long* p, uint64_t n, unsigned long long value) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}

__global__ void read_kernel(const ulonglong2* data, uint64_t n, unsigned long long* sink) {
  unsigned long long acc = 0;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    ulonglong2 v = __ldg(data + i);
    acc ^= v.x + v.y;
  }
  if (acc == 0x5eed5eed5eedull) atomicAdd(sink, acc);  // keeps the loads alive, almost never writes
}


}  // namespace

void launch_dim_build(const DimParams& p, cudaStream_t stream) {
  if (p.rows == 0) return;
  dim_build_kernel<<<gpu::item_blocks(p.rows), gpu::kThreads, 0, stream>>>(p);
}

void launch_dim_rank(const uint32_t* flags, uint64_t range, int32_t* dense, int32_t* inv, unsigned long long* count,
                     cudaStream_t stream) {
  dim_rank_kernel<<<1, kRankBlock, 0, stream>>>(flags, range, dense, inv, count);
}

void launch_dim_remap(int32_t* lookup, uint64_t n, const int32_t* dense, cudaStream_t stream) {
  if (n == 0) return;
  dim_remap_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(lookup, n, dense);
}

void launch_translate(const int32_t* lookup, int64_t key_min, uint64_t key_range, const int64_t* decode, uint64_t n,
                      int32_t* out, cudaStream_t stream) {
  if (n == 0) return;
  translate_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(lookup, key_min, key_range, decode, n, out);
}

// Recognises the aggregate programs the kernel evaluates without the interpreter:
// [load a] or [load a -> r, load b -> r', r = r op r'] (as star_plan compiles a op b).
void launch_narrow_lookup(const int32_t* in, uint64_t n, void* out, int width, cudaStream_t stream) {
  if (n == 0) return;
  if (width == 1)
    narrow_lookup_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(in, n, static_cast<uint8_t*>(out));
  else
    narrow_lookup_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(in, n, static_cast<uint16_t*>(out));
}

void classify(DevAgg& a) {
  a.shape = kShapeProgram;
  if (a.func == kAggCount) return;
  const DevInstr* in = a.ins;
  if (a.nins == 1 && in[0].op == kOpLoad && in[0].dst == 0) {
    a.shape = kShapeCol;
    a.ca = a.cb = in[0].col;
    return;
  }
  if (a.nins == 3 && in[0].op == kOpLoad && in[1].op == kOpLoad && in[0].dst == 0 && in[1].dst == 1 &&
      in[2].dst == 0 && in[2].a == 0 && in[2].b == 1) {
    const int op = in[2].op;
    if (op != kOpMul && op != kOpSub && op != kOpAdd) return;
    a.shape = op == kOpMul ? kShapeMul : op == kOpSub ? kShapeSub : kShapeAdd;
    a.ca = in[0].col;
    a.cb = in[1].col;
  }
}

size_t star_shared_bytes(const StarParams& p) {
  if (p.mode != 0 && p.mode != 1 && p.mode != 5) return 0;  // modes 2 and 3 keep no groups in shared memory
  const uint64_t G = p.mode == 0 ? 1 : p.groups;
  uint64_t words = G;
  for (int a = 0; a < p.naggs; a++) words += G * (p.aggs[a].wide ? 2 : 1);
  return size_t(words * 8);
}

namespace {

// Dynamic shared memory a fact-kernel block may take for lookups: a quarter of the
// SM's (the kernel is sized for 4 blocks per SM) less the 1 KB the runtime reserves
// per block. H200: 56 KB; a 64 KB-per-SM part: 15 KB.
size_t shared_budget() {
  static const size_t b = [] {
    int dev = 0, per_sm = 0, optin = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    const size_t quarter = size_t(per_sm) / kStarMinBlocks;
    return quarter > 1024 ? std::min<size_t>(quarter - 1024, size_t(optin)) : 0;
  }();
  return b;
}

// Opts every instantiation into the whole budget once (not per launch): above 48 KB
// of dynamic shared memory a kernel needs the attribute.
template <typename K>
void allow_shared(K kernel) {
  if (shared_budget() > 48 * 1024)
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_budget()));
}

// Loads the six modes of one fact-kernel shape (lazy module loading loads a kernel
// at its first use) and opts them into the shared-memory budget, once per process;
// a second thread asking meanwhile waits for the first.
template <typename V, int MINB, Layout L, bool T>
void prepare_star_t() {
  static const bool allowed = [] {
    allow_shared(star_kernel<0, V, MINB, L, T>);
    allow_shared(star_kernel<1, V, MINB, L, T>);
    allow_shared(star_kernel<2, V, MINB, L, T>);
    allow_shared(star_kernel<3, V, MINB, L, T>);
    allow_shared(star_kernel<4, V, MINB, L, T>);
    allow_shared(star_kernel<5, V, few_min_blocks(MINB), L, T>);
    cudaFuncAttributes a;  // loads the kernel when allow_shared had nothing to set
    cudaFuncGetAttributes(&a, star_kernel<0, V, MINB, L, T>);
    cudaFuncGetAttributes(&a, star_kernel<1, V, MINB, L, T>);
    cudaFuncGetAttributes(&a, star_kernel<2, V, MINB, L, T>);
    cudaFuncGetAttributes(&a, star_kernel<3, V, MINB, L, T>);
    cudaFuncGetAttributes(&a, star_kernel<4, V, MINB, L, T>);
    cudaFuncGetAttributes(&a, star_kernel<5, V, few_min_blocks(MINB), L, T>);
    return true;
  }();
  (void)allowed;
}

template <typename V, int MINB, Layout L, bool T>
void launch_star_t(const StarParams& p, size_t smem, uint64_t tiles, cudaStream_t stream) {
  prepare_star_t<V, MINB, L, T>();
  // Mode 0 with neither probes nor GROUP BY keys runs as mode 4 (the plain scan).
  const int mode = p.mode == 0 && p.njoins == 0 && p.nroot_groups == 0 ? 4 : p.mode;
  int per_sm = 1;
  switch (mode) {
    case 4: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<4, V, MINB, L, T>, kBlock, smem); break;
    case 0: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<0, V, MINB, L, T>, kBlock, smem); break;
    case 1: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<1, V, MINB, L, T>, kBlock, smem); break;
    case 2: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<2, V, MINB, L, T>, kBlock, smem); break;
    case 5:
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<5, V, few_min_blocks(MINB), L, T>, kBlock,
                                                    smem);
      break;
    default: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<3, V, MINB, L, T>, kBlock, smem); break;
  }
  // Persistent blocks: enough to fill the GPU, each striding over tiles, so the
  // per-block flush of shared accumulators is paid a few hundred times, not per tile.
  const uint64_t grid = std::min<uint64_t>(tiles, uint64_t(std::max(per_sm, 1)) * gpu::sm_count());
  switch (mode) {
    case 4: star_kernel<4, V, MINB, L, T><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    case 0: star_kernel<0, V, MINB, L, T><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    case 1: star_kernel<1, V, MINB, L, T><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    case 2: star_kernel<2, V, MINB, L, T><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    case 5: star_kernel<5, V, few_min_blocks(MINB), L, T><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    default: star_kernel<3, V, MINB, L, T><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
  }
}

template <typename V, int MINB, Layout L>
void launch_star_v(const StarParams& p, size_t smem, uint64_t tiles, cudaStream_t stream) {
  bool ext = p.trees != nullptr;
  for (int k = 0; k < p.npreds; k++) ext = ext || p.preds[k].ranges || p.preds[k].bitmap || p.preds[k].hash;
  // EXT kernels run at 2 blocks per SM (128 registers a thread): capped for 4 (64
  // registers), their boolean trees, semi-linear sums and set probes spilled 0.9-2.5 KB
  // per tree call to local memory (ptxas --resource-usage), and that traffic, not
  // DRAM, bounded their scans.
  if (ext) return launch_star_t<V, 2, L, true>(p, smem, tiles, stream);
  launch_star_t<V, MINB, L, false>(p, smem, tiles, stream);
}

// Points the packed fact columns at their packed words; false when none is packed.
bool substitute_packed(StarParams& p, const PackedCols& packed) {
  bool any = false;
  for (int c = 0; c < p.ncols; c++) {
    if (!packed.words[c] || !packed.bits[c]) continue;
    p.cols[c].data = packed.words[c];
    p.cols[c].bits = packed.bits[c];
    any = true;
  }
  return any;
}

// One thread per (miniblock, lane): the lane's 32 values in stream order through a
// 64-bit buffer, written a word at a time (storage/bit_pack.cpp's packer, on the
// device). Values are masked to `bits`, so the stored ones must fit (the host chose
// `bits` from the stored range).
template <typename T>
__global__ void pack_kernel(const T* data, uint64_t rows, int bits, uint64_t lanes, uint32_t* words) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= lanes) return;
  const uint64_t m = t / kPackedLanes;
  const uint32_t lane = uint32_t(t % kPackedLanes);
  const uint64_t first = m * kPackedMiniblockRows;
  uint32_t* out = words + packed_miniblock_word(first, bits) + lane;
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t buf = 0;
  int have = 0, k = 0;
  for (uint32_t slot = 0; slot < 32; slot++) {
    const uint64_t row = first + (slot / 16) * kPackedHalfRows + lane * 16 + slot % 16;
    buf |= (row < rows ? uint64_t(data[row]) & mask : 0) << have;
    have += bits;
    if (have >= 32) {
      out[uint64_t(k++) * kPackedLanes] = uint32_t(buf);
      buf >>= 32;
      have -= 32;
    }
  }
}

}  // namespace

void launch_pack(const void* data, int width, uint64_t rows, int bits, uint32_t* words, cudaStream_t stream) {
  const uint64_t lanes = (rows + kPackedMiniblockRows - 1) / kPackedMiniblockRows * kPackedLanes;
  if (lanes == 0) return;
  const unsigned blocks = unsigned(gpu::item_blocks(lanes));
  const auto run = [&](auto* typed) {
    pack_kernel<<<blocks, gpu::kThreads, 0, stream>>>(typed, rows, bits, lanes, words);
  };
  if (width == 1) run(static_cast<const uint8_t*>(data));
  else if (width == 2) run(static_cast<const uint16_t*>(data));
  else run(static_cast<const uint32_t*>(data));
}

bool launch_star(const StarParams& params, const StarKnobs& knobs, cudaStream_t stream, const PackedCols* packed) {
  if (params.rows == 0) return false;
  StarParams p = params;
  size_t smem = star_shared_bytes(p);
  // Lookup arrays go to shared memory, smallest first, while the block stays within
  // its share of the SM (4 blocks per SM), so their random probes stop costing L2
  // requests (run 8: q2.1's fact kernel was L2-bound, 94% busy with 4-byte gathers).
  // Probes from shared memory then run first (stable: most selective first within
  // each class): they cut the rows that reach the L2 probes.
  // knobs.smem_lookup off (cuda_smem_lookup) keeps every lookup in global memory.
  const bool smem_lookup = knobs.smem_lookup;
  // Mode 5's row lists (block/few_groups.cuh) are static shared memory beside this.
  const size_t budget = shared_budget() - (p.mode == 5 ? std::min(shared_budget(), kFewListBytes) : 0);
  int by_size[kMaxJoins];
  for (int k = 0; k < p.njoins; k++) {
    p.joins[k].shared_off = -1;
    by_size[k] = k;
  }
  // Perfect-hash point sets first: every row of every tile looks one up.
  for (int k = 0; k < p.npreds; k++) {
    DevPred& d = p.preds[k];
    d.pset_shared_off = -1;
    if (!d.pset_bits) continue;
    const uint64_t bytes = (uint64_t(4) << d.pset_bits), off = (smem + 15) / 16 * 16;
    if (off + bytes > budget) continue;
    d.pset_shared_off = int32_t(off);
    smem = size_t(off + bytes);
  }
  std::stable_sort(by_size, by_size + p.njoins,
                   [&](int a, int b) { return p.joins[a].size * p.joins[a].width < p.joins[b].size * p.joins[b].width; });
  for (int n = 0; n < p.njoins && smem_lookup; n++) {
    DevJoin& j = p.joins[by_size[n]];
    const uint64_t bytes = (j.size * uint64_t(j.width) + 15) / 16 * 16;
    const uint64_t off = (smem + 15) / 16 * 16;
    if (bytes == 0 || off + bytes > budget) continue;
    j.shared_off = int32_t(off);
    smem = size_t(off + bytes);
  }
  std::stable_partition(p.joins, p.joins + p.njoins, [](const DevJoin& j) { return j.shared_off >= 0; });
  const uint64_t tiles = (p.rows + kTile - 1) / kTile;
  // Shaped aggregates (col, col op col) are evaluated per selected row with both loads
  // issued first (run 7: q1.1 0.948 -> 0.837 ms); knobs.rowshape off (cuda_rowshape)
  // sends every aggregate through the interpreter.
  const bool rowshape = knobs.rowshape;
  int32_t slot = 1;  // word 0 (x G) holds the counts; the layout star_shared_bytes sizes
  for (int a = 0; a < p.naggs; a++) {
    classify(p.aggs[a]);
    if (!rowshape) p.aggs[a].shape = kShapeProgram;
    p.aggs[a].slot = slot;
    slot += p.aggs[a].wide ? 2 : 1;
  }
  // Dense tiles of a one-group query whose aggregates are all column shapes fold from
  // the columns' 16-byte vector loads instead of one scalar load per selected row (a
  // warp's row loads lie 64 bytes apart in the blocked layout).
  p.tile_aggs = 0;
  if (knobs.tile_aggregate && p.mode == 0 && !p.count_only) {
    p.tile_aggs = 1;
    for (int a = 0; a < p.naggs; a++)
      if (p.aggs[a].func != kAggCount && p.aggs[a].shape == kShapeProgram) p.tile_aggs = 0;
  }
  // Tile layout: blocked unless knobs.blocked is off (cuda_layout = striped). Run 9 measured striped faster
  // (10.67 vs 11.24 ms) while flags were bytes and probes branched; with the mask and
  // branch-free probes (run 10) blocked is faster (5.99 vs 7.10 ms): fewer load
  // instructions per column (one 16-byte vector holds 16 one-byte rows).
  const bool blocked = knobs.blocked;
  bool narrow = true;
  for (int c = 0; c < p.ncols; c++) narrow = narrow && p.cols[c].width <= 4;
  for (int k = 0; k < p.njoins; k++) narrow = narrow && p.joins[k].idx32;
  if (!narrow) {  // 64-bit values: 3 blocks per SM (as tested)
    if (blocked) launch_star_v<uint64_t, 3, Layout::kBlocked>(p, smem, tiles, stream);
    else launch_star_v<uint64_t, 3, Layout::kStriped>(p, smem, tiles, stream);
    return false;
  }
  // 32-bit stored values: clamp the predicates' inline ranges to 32 bits (stored values
  // are below 2^32; device-array sets compare in 64 bits; the trees' leaves come from
  // stored_ranges, inside the column's stored domain).
  for (int k = 0; k < p.npreds; k++) {
    DevPred& d = p.preds[k];
    if (d.ranges || d.bitmap || d.hash || d.pset_bits) continue;
    int n = 0;
    for (int r = 0; r < d.nranges; r++) {
      if (d.lo[r] > 0xffffffffull) continue;
      d.lo[n] = d.lo[r];
      d.hi[n] = std::min<uint64_t>(d.hi[r], 0xffffffffull);
      n++;
    }
    if (n == 0) d.lo[n] = 1, d.hi[n] = 0, n = 1;  // never true
    d.nranges = n;
  }
  // Packed columns (setting cuda_compression): their packed words and widths replace
  // the narrowed ones in these parameters only, read by the kPacked instantiations.
  if (blocked && packed && substitute_packed(p, *packed)) {
    launch_star_v<uint32_t, kPackedMinBlocks, Layout::kPacked>(p, smem, tiles, stream);
    return true;
  }
  // Capped for 4 blocks per SM (64 registers, no spills; run 5: sum 12.30 ms against
  // 13.77 with 3).
  if (blocked) launch_star_v<uint32_t, kStarMinBlocks, Layout::kBlocked>(p, smem, tiles, stream);
  else launch_star_v<uint32_t, kStarMinBlocks, Layout::kStriped>(p, smem, tiles, stream);
  return false;
}

void preload_star_kernels(const std::atomic<bool>& stop) {
  // In the order a star query launches them: the dimension side, then the fact kernel
  // in the default layout with 32-bit stored values (SSB's columns), plain and EXT.
  cudaFuncAttributes a;
  const auto load = [&](auto kernel) {
    if (!stop.load()) cudaFuncGetAttributes(&a, kernel);
  };
  load(dim_build_kernel);
  load(dim_rank_kernel);
  load(dim_remap_kernel);
  load(narrow_lookup_kernel<uint8_t>);
  load(narrow_lookup_kernel<uint16_t>);
  if (!stop.load()) prepare_star_t<uint32_t, kStarMinBlocks, Layout::kBlocked, false>();
  if (!stop.load()) prepare_star_t<uint32_t, 2, Layout::kBlocked, true>();
  load(compact_count_kernel);
  load(compact_write_kernel);
}

namespace {

// The compaction's scratch: keep bits (a word per warp), per-block counts and offsets,
// then the scan's temporary storage.
struct CompactScratch {
  uint64_t blocks = 0, bits_bytes = 0, counts_bytes = 0, scan_bytes = 0;
  explicit CompactScratch(uint64_t groups) : blocks(gpu::item_blocks(groups)) {
    bits_bytes = (blocks * gpu::kThreads / 32 * 4 + 255) / 256 * 256;
    counts_bytes = (blocks * 8 + 255) / 256 * 256;
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const unsigned long long*>(nullptr),
                                  static_cast<unsigned long long*>(nullptr), int(blocks));
    scan_bytes = bytes;
  }
  uint64_t total() const { return bits_bytes + 2 * counts_bytes + scan_bytes + 256; }
};

}  // namespace

uint64_t compact_scratch_bytes(uint64_t groups) { return groups == 0 ? 256 : CompactScratch(groups).total(); }

cudaError_t launch_compact(const unsigned long long* const* fields, int nfields, uint64_t groups, uint64_t capacity,
                           const DevGroupKeep& keep, unsigned long long* out, unsigned long long* gids,
                           unsigned long long* n, void* scratch, cudaStream_t stream) {
  if (groups == 0) return cudaSuccess;
  const CompactScratch sc(groups);
  char* at = static_cast<char*>(scratch);
  unsigned* bits = reinterpret_cast<unsigned*>(at);
  unsigned long long* counts = reinterpret_cast<unsigned long long*>(at + sc.bits_bytes);
  unsigned long long* offsets = reinterpret_cast<unsigned long long*>(at + sc.bits_bytes + sc.counts_bytes);
  void* temp = at + sc.bits_bytes + 2 * sc.counts_bytes;
  const unsigned blocks = unsigned(sc.blocks);
  compact_count_kernel<<<blocks, gpu::kThreads, 0, stream>>>(fields, groups, keep, bits, counts);
  size_t temp_bytes = sc.scan_bytes;
  const cudaError_t e = cub::DeviceScan::ExclusiveSum(temp, temp_bytes, counts, offsets, int(blocks), stream);
  if (e != cudaSuccess) return e;
  compact_write_kernel<<<blocks, gpu::kThreads, 0, stream>>>(fields, nfields, capacity, bits, offsets, counts, out,
                                                             gids, n);
  return cudaGetLastError();
}

void launch_order_keys(const DevColumn& c, uint64_t n, void* out, int bytes, cudaStream_t stream) {
  if (n == 0) return;
  if (bytes == 4)
    order_keys_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(c, n, static_cast<int32_t*>(out));
  else
    order_keys_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(c, n, static_cast<int64_t*>(out));
}

void launch_fill(unsigned long long* p, uint64_t n, unsigned long long value, cudaStream_t stream) {
  if (n == 0) return;
  fill_kernel<<<gpu::item_blocks(n), gpu::kThreads, 0, stream>>>(p, n, value);
}

void launch_read_bandwidth(const void* data, uint64_t bytes, unsigned long long* sink, cudaStream_t stream) {
  const uint64_t n = bytes / sizeof(ulonglong2);
  read_kernel<<<unsigned(gpu::sm_count() * 8), 512, 0, stream>>>(static_cast<const ulonglong2*>(data), n, sink);
}

}  // namespace raydb::exec::cuda
