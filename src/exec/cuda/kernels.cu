// The CUDA backend's kernels. One translation unit keeps nvcc time down; the
// block-wide primitives live in block/*.cuh so the fact kernel reads like its plan.
#include <cstdlib>

#include <cub/block/block_scan.cuh>

#include "exec/cuda/block/aggregate.cuh"
#include "exec/cuda/block/load.cuh"
#include "exec/cuda/block/pred.cuh"
#include "exec/cuda/block/probe.cuh"
#include "exec/cuda/kernels.h"

#ifndef RAYDB_STAR_MIN_BLOCKS
#define RAYDB_STAR_MIN_BLOCKS 4  // blocks per SM the fact kernel's registers are capped for (run 5: 4 beat 3)
#endif

namespace raydb::exec::cuda {

using namespace block;

namespace {

constexpr int kStarMinBlocks = RAYDB_STAR_MIN_BLOCKS;
constexpr long long kI64Max = 0x7fffffffffffffffll;
constexpr long long kI64Min = -kI64Max - 1;

__device__ __forceinline__ unsigned long long init_of(const DevAgg& a) {
  return a.func == kAggMin ? (unsigned long long)kI64Max : a.func == kAggMax ? (unsigned long long)kI64Min : 0ull;
}

__device__ __forceinline__ bool in_ranges(const uint64_t* r, int n, uint64_t v) {
  // Sorted disjoint ranges: binary search for the last lo <= v.
  int a = 0, b = n;
  while (a < b) {
    int m = (a + b) / 2;
    if (r[2 * m] <= v) a = m + 1;
    else b = m;
  }
  return a > 0 && v <= r[2 * (a - 1) + 1];
}

__global__ void dim_build_kernel(const __grid_constant__ DimParams p) {
  const uint64_t row = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool pass = row < p.rows;
  if (pass) {
    for (int f = 0; f < p.nfilters && pass; f++)
      pass = in_ranges(p.filters[f].ranges, p.filters[f].nranges, load_stored(p.filters[f].col, row));
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

constexpr int kMaxStages = 4;

// Staged kernel, portable path (no bulk copies below sm_90): the whole block copies
// the tile into the stage with ordinary loads; callers sync before and after.
template <int BLOCK>
__device__ __forceinline__ void stage_fill_sync(const StarParams& p, uint64_t tile, char* dst) {
  constexpr uint64_t TILE = uint64_t(BLOCK) * kItems;
  const uint64_t base = tile * TILE;
  const uint64_t n = p.rows - base < TILE ? p.rows - base : TILE;
  for (int c = 0; c < p.ncols; c++) {
    const DevColumn& col = p.cols[c];
    const uint64_t vecs = (n * uint64_t(col.width) + 15) / 16;
    const uint4* src = reinterpret_cast<const uint4*>(static_cast<const char*>(col.data) + base * uint64_t(col.width));
    uint4* d = reinterpret_cast<uint4*>(dst + p.col_off[c]);
    for (uint64_t i = threadIdx.x; i < vecs; i += BLOCK) d[i] = __ldg(src + i);
  }
}

// Staged kernel, sm_90: one thread asks the copy engine for every column's part of
// the tile (one bulk copy per column), all completing on the stage's mbarrier.
template <int BLOCK>
__device__ __forceinline__ void stage_issue(const StarParams& p, uint64_t tile, char* dst, unsigned long long* bar) {
  constexpr uint64_t TILE = uint64_t(BLOCK) * kItems;
  const uint64_t base = tile * TILE;
  const uint64_t n = p.rows - base < TILE ? p.rows - base : TILE;
  uint32_t total = 0;
  for (int c = 0; c < p.ncols; c++) total += uint32_t((n * uint64_t(p.cols[c].width) + 15) & ~15ull);
  mbar_expect_tx(bar, total);
  for (int c = 0; c < p.ncols; c++) {
    const DevColumn& col = p.cols[c];
    bulk_copy(dst + p.col_off[c], static_cast<const char*>(col.data) + base * uint64_t(col.width),
              uint32_t((n * uint64_t(col.width) + 15) & ~15ull), bar);
  }
}

template <int MODE, typename V, bool SHAPED, int MINB, int BLOCK = kBlock, bool STAGED = false>
__global__ void __launch_bounds__(BLOCK, MINB) star_kernel(const __grid_constant__ StarParams p) {
  static_assert(!(SHAPED && STAGED), "the staged kernel runs the interpreter aggregates");
  static_assert(!STAGED || sizeof(V) == 4, "staged tiles hold columns of at most 4 bytes");
  constexpr uint64_t TILE = uint64_t(BLOCK) * kItems;
  extern __shared__ __align__(128) unsigned long long smem[];
  __shared__ unsigned long long bars[STAGED ? kMaxStages : 1];
  // MODE 0: one group, per-thread registers; MODE 1: groups in shared memory;
  // MODE 2: groups in global memory. Modes 0 and 1 flush to global at the end.
  const uint64_t G = MODE == 0 ? 1 : (MODE == 1 ? p.groups : 0);
  unsigned long long* s_lo[kMaxAggs];
  unsigned long long* s_hi[kMaxAggs];
  uint64_t off = G;
  for (int a = 0; a < kMaxAggs; a++) {
    s_lo[a] = s_hi[a] = nullptr;
    if (MODE == 2 || a >= p.naggs) continue;
    s_lo[a] = smem + off;
    off += G;
    if (p.aggs[a].wide) {
      s_hi[a] = smem + off;
      off += G;
    }
  }
  // Small lookup arrays (the date dimension's) probed from shared memory.
  bool copied = false;
  for (int k = 0; k < p.njoins; k++) {
    const DevJoin& j = p.joins[k];
    if (j.shared_off < 0) continue;
    int32_t* dst = reinterpret_cast<int32_t*>(reinterpret_cast<char*>(smem) + j.shared_off);
    for (uint64_t i = threadIdx.x; i < j.size; i += BLOCK) dst[i] = __ldg(j.lookup + i);
    copied = true;
  }
  if (MODE == 2 && copied) __syncthreads();
  if (MODE != 2) {
    for (uint64_t i = threadIdx.x; i < G; i += BLOCK) smem[i] = 0;
    for (int a = 0; a < p.naggs; a++) {
      const unsigned long long init = init_of(p.aggs[a]);
      for (uint64_t i = threadIdx.x; i < G; i += BLOCK) {
        s_lo[a][i] = init;
        if (s_hi[a]) s_hi[a][i] = 0;
      }
    }
    __syncthreads();
  }
  unsigned long long r_count = 0, r_lo[kMaxAggs], r_hi[kMaxAggs];
#pragma unroll
  for (int a = 0; a < kMaxAggs; a++) {
    r_lo[a] = a < p.naggs ? init_of(p.aggs[a]) : 0;
    r_hi[a] = 0;
  }

  const uint64_t tiles = (p.rows + TILE - 1) / TILE;
  char* const stage_area = reinterpret_cast<char*>(smem) + p.stage_base;
  if constexpr (STAGED) {
    // Prologue: the block's first `stages` tiles go in flight at once.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) {
      for (int s = 0; s < p.stages; s++) mbar_init(&bars[s], 1);
      for (int s = 0; s < p.stages; s++) {
        const uint64_t t = blockIdx.x + uint64_t(s) * gridDim.x;
        if (t < tiles) stage_issue<BLOCK>(p, t, stage_area + uint64_t(s) * p.stage_bytes, &bars[s]);
      }
    }
    __syncthreads();
#endif
  }
  uint64_t iter = 0;
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x, iter++) {
    const uint64_t base = tile * TILE;
    const char* sbuf = nullptr;
    if constexpr (STAGED) {
      const int s = int(iter % uint64_t(p.stages));
      sbuf = stage_area + uint64_t(s) * p.stage_bytes;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      mbar_wait(&bars[s], uint32_t((iter / uint64_t(p.stages)) & 1));
#else
      stage_fill_sync<BLOCK>(p, tile, stage_area + uint64_t(s) * p.stage_bytes);
      __syncthreads();
#endif
    }
    // Stream the block's next unstaged tile into L2 while this one runs: the dependent
    // steps below (filter -> probe -> lookup -> aggregate loads) then wait on L2, not DRAM.
    if (threadIdx.x < unsigned(p.ncols) && p.prefetch) {
      const uint64_t next = tile + gridDim.x * uint64_t(STAGED ? p.stages : 1);
      if (next < tiles) {
        const DevColumn& c = p.cols[threadIdx.x];
        const uint64_t nb = next * TILE;
        const uint64_t n = p.rows - nb < uint64_t(TILE) ? p.rows - nb : uint64_t(TILE);
        prefetch_l2(static_cast<const char*>(c.data) + nb * uint64_t(c.width), uint32_t((n * uint64_t(c.width) + 15) & ~15ull));
      }
    }
    bool flag[kItems];
    uint32_t gid[kItems];
    const uint64_t first = thread_row(base);
#pragma unroll
    for (int i = 0; i < kItems; i++) {
      flag[i] = first + i < p.rows;
      gid[i] = 0;
    }
    for (int k = 0; k < p.npreds; k++) {
      const int c = p.preds[k].col;
      pred_tile<V, STAGED>(p.preds[k], p.cols[c], base, flag, sbuf + p.col_off[c]);
    }
    for (int k = 0; k < p.njoins; k++) {
      const int c = p.joins[k].col;
      const int32_t* lk = p.joins[k].shared_off >= 0
                              ? reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(smem) + p.joins[k].shared_off)
                              : p.joins[k].lookup;
      probe_tile<V, STAGED>(p.joins[k], lk, p.cols[c], base, flag, gid, sbuf + p.col_off[c]);
    }
    for (int k = 0; k < p.nroot_groups; k++) {
      const int c = p.root_groups[k].col;
      group_tile<V, STAGED>(p.root_groups[k], p.cols[c], base, flag, gid, sbuf + p.col_off[c]);
    }
    if constexpr (SHAPED) {
      // Shaped aggregates (launch_star): per tile from vector loads of the selected
      // rows' vectors, each item predicated; no per-row loop and no interpreter.
      uint32_t sel = 0;
#pragma unroll
      for (int i = 0; i < kItems; i++) sel |= uint32_t(flag[i]) << i;
      if (!sel) continue;
      if (MODE == 0) {
        r_count += unsigned(__popc(sel));
      } else {
        unsigned long long* cnt = MODE == 1 ? smem : p.acc.count;
#pragma unroll
        for (int i = 0; i < kItems; i++)
          if (flag[i]) atomicAdd(cnt + gid[i], 1ull);
      }
#pragma unroll 1
      for (int a = 0; a < p.naggs; a++) {
        const DevAgg& ag = p.aggs[a];
        if (ag.func == kAggCount) continue;
        const DevColumn& ca = p.cols[ag.ca];
        const DevColumn& cb = p.cols[ag.cb];
        const int shape = ag.shape;
        V x[kItems], y[kItems];
        with_width(ca, base, flag, x);
        if (shape != kShapeCol) {
          with_width(cb, base, flag, y);
        } else {
#pragma unroll
          for (int i = 0; i < kItems; i++) y[i] = 0;
        }
        // Unsigned arithmetic: the host proved the exact value fits in int64.
        auto value = [&](int i) {
          const uint64_t xa = uint64_t(value_of(ca, uint64_t(x[i])));
          const uint64_t xb = shape != kShapeCol ? uint64_t(value_of(cb, uint64_t(y[i]))) : 0ull;
          return int64_t(shape == kShapeMul ? xa * xb : shape == kShapeSub ? xa - xb : xa + xb);
        };
        if (MODE == 0) {
          unsigned long long lo = r_lo[a], hi = r_hi[a];
          if (ag.func == kAggSum) {
            if (ag.wide) {
#pragma unroll
              for (int i = 0; i < kItems; i++)
                if (flag[i]) {
                  const int64_t v = value(i);
                  const unsigned long long u = (unsigned long long)v;
                  lo += u;
                  hi += (v < 0 ? ~0ull : 0ull) + (lo < u ? 1ull : 0ull);
                }
            } else {
#pragma unroll
              for (int i = 0; i < kItems; i++)
                if (flag[i]) lo += (unsigned long long)value(i);
            }
          } else if (ag.func == kAggMin) {
#pragma unroll
            for (int i = 0; i < kItems; i++)
              if (flag[i]) {
                const int64_t v = value(i);
                if (v < (long long)lo) lo = (unsigned long long)v;
              }
          } else {
#pragma unroll
            for (int i = 0; i < kItems; i++)
              if (flag[i]) {
                const int64_t v = value(i);
                if (v > (long long)lo) lo = (unsigned long long)v;
              }
          }
          r_lo[a] = lo;
          r_hi[a] = hi;
        } else {
          unsigned long long* lp = MODE == 1 ? s_lo[a] : p.acc.lo[a];
          unsigned long long* hp = MODE == 1 ? s_hi[a] : (ag.wide ? p.acc.hi[a] : nullptr);
          if (ag.func == kAggSum && !ag.wide) {
#pragma unroll
            for (int i = 0; i < kItems; i++)
              if (flag[i]) atomicAdd(lp + gid[i], (unsigned long long)value(i));
          } else {
#pragma unroll
            for (int i = 0; i < kItems; i++)
              if (flag[i]) fold(ag, lp + gid[i], hp ? hp + gid[i] : nullptr, value(i));
          }
        }
      }
      continue;
    }
    // The aggregation code (a register-program interpreter per aggregate) is large:
    // run it once per selected row from a non-unrolled loop over a bit mask, so the
    // kernel's instruction footprint stays small (unrolling it per item thrashed the
    // instruction cache: measured 5.6 ms for q1.1 at SF 20 with 16 unrolled copies).
    uint32_t mask = 0;
#pragma unroll
    for (int i = 0; i < kItems; i++) mask |= uint32_t(flag[i]) << i;
#pragma unroll 1
    while (mask) {
      const int i = __ffs(int(mask)) - 1;
      mask &= mask - 1;
      const uint64_t row = first + uint64_t(i);
      if (MODE == 0) {
        r_count++;
#pragma unroll 1
        for (int a = 0; a < p.naggs; a++) {
          const DevAgg& ag = p.aggs[a];
          if (ag.func == kAggCount) continue;
          const int64_t v = (!STAGED && ag.shape != kShapeProgram)
                                  ? eval_shaped(ag, p.cols, row)
                                  : eval_program<STAGED>(ag, p.cols, row, sbuf, p.col_off, unsigned(row - base));
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
        unsigned long long* cnt = MODE == 1 ? smem : p.acc.count;
        atomicAdd(cnt + g, 1ull);
#pragma unroll 1
        for (int a = 0; a < p.naggs; a++) {
          const DevAgg& ag = p.aggs[a];
          if (ag.func == kAggCount) continue;
          const int64_t v = (!STAGED && ag.shape != kShapeProgram)
                                  ? eval_shaped(ag, p.cols, row)
                                  : eval_program<STAGED>(ag, p.cols, row, sbuf, p.col_off, unsigned(row - base));
          if (MODE == 1)
            fold(ag, s_lo[a] + g, s_hi[a] ? s_hi[a] + g : nullptr, v);
          else
            fold(ag, p.acc.lo[a] + g, ag.wide ? p.acc.hi[a] + g : nullptr, v);
        }
      }
    }
    if constexpr (STAGED) {
      // Every thread is done with this stage: refill it with the tile `stages` ahead.
      __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      if (threadIdx.x == 0) {
        const uint64_t t = tile + uint64_t(p.stages) * gridDim.x;
        if (t < tiles) {
          fence_proxy_async();
          const int s = int(iter % uint64_t(p.stages));
          stage_issue<BLOCK>(p, t, stage_area + uint64_t(s) * p.stage_bytes, &bars[s]);
        }
      }
#endif
    }
  }
  if (MODE == 2) return;
  if (MODE == 0) {
    if (r_count) {
      atomicAdd(smem, r_count);
#pragma unroll
      for (int a = 0; a < kMaxAggs; a++) {
        if (a >= p.naggs) break;
        const DevAgg& ag = p.aggs[a];
        if (ag.func == kAggSum) {
          if (ag.wide)
            add128(s_lo[a], s_hi[a], r_lo[a], r_hi[a]);
          else
            atomicAdd(s_lo[a], r_lo[a]);
        } else if (ag.func == kAggMin) {
          atomicMin(reinterpret_cast<long long*>(s_lo[a]), (long long)r_lo[a]);
        } else if (ag.func == kAggMax) {
          atomicMax(reinterpret_cast<long long*>(s_lo[a]), (long long)r_lo[a]);
        }
      }
    }
  }
  __syncthreads();
  for (uint64_t g = threadIdx.x; g < G; g += BLOCK) {
    const unsigned long long c = smem[g];
    if (!c) continue;
    atomicAdd(p.acc.count + g, c);
    for (int a = 0; a < p.naggs; a++) {
      const DevAgg& ag = p.aggs[a];
      if (ag.func == kAggSum) {
        if (ag.wide)
          add128(p.acc.lo[a] + g, p.acc.hi[a] + g, s_lo[a][g], s_hi[a][g]);
        else
          atomicAdd(p.acc.lo[a] + g, s_lo[a][g]);
      } else if (ag.func == kAggMin) {
        atomicMin(reinterpret_cast<long long*>(p.acc.lo[a] + g), (long long)s_lo[a][g]);
      } else if (ag.func == kAggMax) {
        atomicMax(reinterpret_cast<long long*>(p.acc.lo[a] + g), (long long)s_lo[a][g]);
      }
    }
  }
}

__global__ void compact_kernel(const unsigned long long* const* fields, int nfields, uint64_t groups,
                               uint64_t capacity, unsigned long long* out, unsigned long long* gids,
                               unsigned long long* n) {
  const uint64_t g = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool keep = g < groups && fields[0][g] != 0;
  // Warp-aggregated slot allocation: one atomic per warp.
  const unsigned mask = __ballot_sync(0xffffffffu, keep);
  if (!mask) return;
  const int lane = threadIdx.x & 31;
  const int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(n, (unsigned long long)__popc(mask));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (!keep) return;
  const uint64_t pos = base + __popc(mask & ((1u << lane) - 1));
  gids[pos] = g;
  for (int f = 0; f < nfields; f++) out[uint64_t(f) * capacity + pos] = fields[f][g];
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

unsigned blocks_for(uint64_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

int device_sms() {
  static int sms = [] {
    int dev = 0, v = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev);
    return v > 0 ? v : 1;
  }();
  return sms;
}

}  // namespace

void launch_dim_build(const DimParams& p, cudaStream_t stream) {
  if (p.rows == 0) return;
  dim_build_kernel<<<blocks_for(p.rows, 256), 256, 0, stream>>>(p);
}

void launch_dim_rank(const uint32_t* flags, uint64_t range, int32_t* dense, int32_t* inv, unsigned long long* count,
                     cudaStream_t stream) {
  dim_rank_kernel<<<1, kRankBlock, 0, stream>>>(flags, range, dense, inv, count);
}

void launch_dim_remap(int32_t* lookup, uint64_t n, const int32_t* dense, cudaStream_t stream) {
  if (n == 0) return;
  dim_remap_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(lookup, n, dense);
}

void launch_translate(const int32_t* lookup, int64_t key_min, uint64_t key_range, const int64_t* decode, uint64_t n,
                      int32_t* out, cudaStream_t stream) {
  if (n == 0) return;
  translate_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(lookup, key_min, key_range, decode, n, out);
}

// Recognises the aggregate programs the kernel evaluates without the interpreter:
// [load a] or [load a -> r, load b -> r', r = r op r'] (as star_plan compiles a op b).
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
  if (p.mode == 2) return 0;
  const uint64_t G = p.mode == 0 ? 1 : p.groups;
  uint64_t words = G;
  for (int a = 0; a < p.naggs; a++) words += G * (p.aggs[a].wide ? 2 : 1);
  return size_t(words * 8);
}

template <typename V, bool SHAPED, int MINB = kStarMinBlocks>
void launch_star_v(const StarParams& p, size_t smem, uint64_t tiles, cudaStream_t stream) {
  int per_sm = 1;
  switch (p.mode) {
    case 0: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<0, V, SHAPED, MINB>, kBlock, smem); break;
    case 1: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<1, V, SHAPED, MINB>, kBlock, smem); break;
    default: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, star_kernel<2, V, SHAPED, MINB>, kBlock, smem); break;
  }
  // Persistent blocks: enough to fill the GPU, each striding over tiles, so the
  // per-block flush of shared accumulators is paid a few hundred times, not per tile.
  const uint64_t grid = std::min<uint64_t>(tiles, uint64_t(std::max(per_sm, 1)) * device_sms());
  switch (p.mode) {
    case 0: star_kernel<0, V, SHAPED, MINB><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    case 1: star_kernel<1, V, SHAPED, MINB><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
    default: star_kernel<2, V, SHAPED, MINB><<<unsigned(grid), kBlock, smem, stream>>>(p); break;
  }
}

// Staged kernel: 128-thread blocks (2048-row tiles), 64 registers (8 blocks/SM by
// registers; shared memory for the stages decides the real count).
constexpr int kStagedBlock = 128;
constexpr int kStagedMinBlocks = 8;
constexpr size_t kStagedSharedMax = 200 * 1024;

template <int MODE>
void launch_staged_mode(const StarParams& p, size_t smem, uint64_t tiles, cudaStream_t stream) {
  auto kernel = star_kernel<MODE, uint32_t, false, kStagedMinBlocks, kStagedBlock, true>;
  static size_t raised = 48 * 1024;  // dynamic shared memory limit set on the kernel so far
  if (smem > raised) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    raised = smem;
  }
  int per_sm = 1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kStagedBlock, smem);
  const uint64_t grid = std::min<uint64_t>(tiles, uint64_t(std::max(per_sm, 1)) * device_sms());
  kernel<<<unsigned(grid), kStagedBlock, smem, stream>>>(p);
}

int device_cc_major() {
  static int major = [] {
    int dev = 0, v = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, dev);
    return v;
  }();
  return major;
}

// Stages deep for the staged kernel: RAYDB_CUDA_STAGES (2 or 3; 0, the default, turns
// it off); only on sm_90 and later (the bulk copy engine).
int staged_depth() {
  static const int depth = [] {
    const char* e = std::getenv("RAYDB_CUDA_STAGES");
    int d = e && *e ? std::atoi(e) : 0;  // run 6: staged 2 deep was slower (23.0 vs 12.5 ms): opt-in
    if (d != 0 && (d < 2 || d > kMaxStages)) d = 2;
    return device_cc_major() >= 9 ? d : 0;
  }();
  return depth;
}

// Lays out the staging buffers after the shared accumulators; false when they do not fit.
bool plan_stages(StarParams& p, size_t& smem) {
  const int depth = staged_depth();
  if (depth == 0) return false;
  const uint64_t tile = uint64_t(kStagedBlock) * kItems;
  uint64_t off = 0;
  for (int c = 0; c < p.ncols; c++) {
    p.col_off[c] = uint32_t(off);
    off += (tile * uint64_t(p.cols[c].width) + 127) / 128 * 128;
  }
  const uint64_t base = (smem + 127) / 128 * 128;
  const uint64_t total = base + uint64_t(depth) * off;
  if (off == 0 || total > kStagedSharedMax) return false;
  p.stages = depth;
  p.stage_base = uint32_t(base);
  p.stage_bytes = uint32_t(off);
  smem = size_t(total);
  return true;
}

void launch_star(const StarParams& params, cudaStream_t stream) {
  if (params.rows == 0) return;
  StarParams p = params;
  size_t smem = star_shared_bytes(p);
  // Lookup arrays of at most 16 KB (the date dimension's) go to shared memory when the
  // block's total stays within 48 KB (4 blocks per SM; no opt-in attribute needed).
  // RAYDB_CUDA_SMEM_LOOKUP=0 keeps every lookup in global memory.
  static const bool smem_lookup = [] {
    const char* e = std::getenv("RAYDB_CUDA_SMEM_LOOKUP");
    return !(e && *e == '0');
  }();
  for (int k = 0; k < p.njoins; k++) {
    p.joins[k].shared_off = -1;
    const uint64_t bytes = p.joins[k].size * 4;
    const uint64_t off = (smem + 15) / 16 * 16;
    if (!smem_lookup || bytes == 0 || bytes > 16 * 1024 || off + bytes > 48 * 1024) continue;
    p.joins[k].shared_off = int32_t(off);
    smem = size_t(off + bytes);
  }
  // L2 bulk prefetch of the block's next tile: off by default since run 7 measured
  // every SSB query faster without it (sum 11.11 vs 11.95 ms); RAYDB_CUDA_PREFETCH=1
  // turns it back on for comparison.
  static const bool prefetch = [] {
    const char* e = std::getenv("RAYDB_CUDA_PREFETCH");
    return e && *e == '1';
  }();
  p.prefetch = prefetch ? 1 : 0;
  const uint64_t tiles = (p.rows + kTile - 1) / kTile;
  p.shaped = 1;
  for (int a = 0; a < p.naggs; a++) {
    classify(p.aggs[a]);
    if (p.aggs[a].func != kAggCount && p.aggs[a].shape == kShapeProgram) p.shaped = 0;
  }
  // Shaped aggregates are evaluated per selected row without the interpreter (run 6);
  // RAYDB_CUDA_ROWSHAPE=0 sends every aggregate through the interpreter (run 5).
  static const bool rowshape = [] {
    const char* e = std::getenv("RAYDB_CUDA_ROWSHAPE");
    return !(e && *e == '0');
  }();
  static const bool shaped_tiles = [] {
    const char* e = std::getenv("RAYDB_CUDA_SHAPED");
    return e && *e && *e != '0';
  }();
  if (!rowshape && !(p.shaped && shaped_tiles))
    for (int a = 0; a < p.naggs; a++) p.aggs[a].shape = kShapeProgram;
  bool narrow = true;
  for (int c = 0; c < p.ncols; c++) narrow = narrow && p.cols[c].width <= 4;
  if (!narrow) return launch_star_v<uint64_t, false, 3>(p, smem, tiles, stream);  // 64-bit values: 3 blocks (as tested)
  // 32-bit stored values: clamp the predicates' ranges to 32 bits (stored values are below 2^32).
  for (int k = 0; k < p.npreds; k++) {
    DevPred& d = p.preds[k];
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
  // Run 4 measured the shaped kernel SLOWER than the interpreter (sum 18.7 ms vs 13.6:
  // 80-register cap spills; with 2 blocks/SM no spills but too little occupancy), so it
  // is opt-in (RAYDB_CUDA_SHAPED=1) until its register use drops. The interpreter kernel
  // is capped for 4 blocks per SM (64 registers, no spills; run 5: sum 12.30 ms against
  // 13.77 with 3); RAYDB_CUDA_MINB=3 selects the 3-block cap to compare.
  static const bool shaped = [] {
    const char* e = std::getenv("RAYDB_CUDA_SHAPED");
    return e && *e && *e != '0';
  }();
  static const int minb = [] {
    const char* e = std::getenv("RAYDB_CUDA_MINB");
    return e && *e == '3' ? 3 : kStarMinBlocks;
  }();
  size_t staged_smem = smem;
  if (!(p.shaped && shaped) && minb != 3 && plan_stages(p, staged_smem)) {
    // Fact tiles staged in shared memory by the bulk copy engine (run 6).
    const uint64_t stiles = (p.rows + uint64_t(kStagedBlock) * kItems - 1) / (uint64_t(kStagedBlock) * kItems);
    switch (p.mode) {
      case 0: launch_staged_mode<0>(p, staged_smem, stiles, stream); break;
      case 1: launch_staged_mode<1>(p, staged_smem, stiles, stream); break;
      default: launch_staged_mode<2>(p, staged_smem, stiles, stream); break;
    }
  } else if (p.shaped && shaped)
    launch_star_v<uint32_t, true, 3>(p, smem, tiles, stream);
  else if (minb == 3)
    launch_star_v<uint32_t, false, 3>(p, smem, tiles, stream);
  else
    launch_star_v<uint32_t, false>(p, smem, tiles, stream);
}

void launch_compact(const unsigned long long* const* fields, int nfields, uint64_t groups, uint64_t capacity,
                    unsigned long long* out, unsigned long long* gids, unsigned long long* n, cudaStream_t stream) {
  if (groups == 0) return;
  compact_kernel<<<blocks_for(groups, 256), 256, 0, stream>>>(fields, nfields, groups, capacity, out, gids, n);
}

void launch_fill(unsigned long long* p, uint64_t n, unsigned long long value, cudaStream_t stream) {
  if (n == 0) return;
  fill_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(p, n, value);
}

void launch_read_bandwidth(const void* data, uint64_t bytes, unsigned long long* sink, cudaStream_t stream) {
  const uint64_t n = bytes / sizeof(ulonglong2);
  read_kernel<<<unsigned(device_sms() * 8), 512, 0, stream>>>(static_cast<const ulonglong2*>(data), n, sink);
}

}  // namespace raydb::exec::cuda
