#pragma once
// Kernels of the GPU radix select (radix_select.h). A slot is one (group, wanted rank)
// pair, s = group * m + j. Slots of one group whose decided prefixes are equal share
// one histogram (their "owner"'s): a median's two ranks nearly always do, so each row
// adds one count per group, not one per rank. Once the rows that still match some
// owner's prefix fit the candidate buffer, the next full pass also copies them out and
// every later pass reads only those (the mode below). All decisions stay on the
// device: the host queues the passes back to back and never waits between them.
#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "exec/core/order_statistics/column_input.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda::ops {

using orderstat::ColumnInput;
using u64 = unsigned long long;
constexpr u64 kNoRankRadix = ~u64(0);
constexpr uint32_t kNoHistogram = ~0u;
constexpr int kRadixChooseThreads = 256;

// What the passes read from rows
enum RadixMode : int { kFullRows = 0, kFullRowsAndCopy = 1, kCandidates = 2 };

struct RadixState {
  u64* ranks = nullptr;      // [slots] rank within the slot's current prefix
  u64* prefix = nullptr;     // [slots] the key bits decided so far
  u64* bucket = nullptr;     // [slots] rows in the bucket the last pass chose
  uint32_t* hidx = nullptr;  // [slots] histogram row of an owner, kNoHistogram otherwise
  uint32_t* owner = nullptr; // [slots] the slot whose histogram this one reads
  u64* hist = nullptr;       // [owners * 2^w] counts of the current pass
  u64* cand_keys = nullptr;  // copied-out rows: key and group
  uint32_t* cand_groups = nullptr;
  u64* cand_n = nullptr;
  u64 cand_cap = 0;
  int* mode = nullptr;       // RadixMode, advanced on the device by radix_plan_kernel
};

// One thread's pending additions to one counter: runs of the same counter (the
// common case when a digit is skewed, e.g. leading bits all equal) become one atomic.
struct RunCounter {
  uint32_t idx = kNoHistogram, count = 0;
  template <bool kShared>
  __device__ void add(uint32_t i, unsigned int* shared, u64* global) {
    if (i == idx) {
      count++;
      return;
    }
    flush<kShared>(shared, global);
    idx = i;
    count = 1;
  }
  template <bool kShared>
  __device__ void flush(unsigned int* shared, u64* global) {
    if (idx == kNoHistogram) return;
    if (kShared) atomicAdd(&shared[idx], count);
    else atomicAdd(&global[idx], u64(count));
  }
};

// Adds a row to the histograms of the owners whose prefix it matches; true if any.
template <bool kShared>
__device__ bool radix_visit(const RadixState& st, uint32_t m, uint64_t key, uint32_t group, int shift, int w,
                            bool check_prefix, RunCounter& run, unsigned int* shared) {
  const uint32_t digit = uint32_t(key >> shift) & ((1u << w) - 1);
  bool matched = false;
  for (uint32_t j = 0; j < m; j++) {
    const uint32_t s = group * m + j, h = st.hidx[s];
    if (h == kNoHistogram || (check_prefix && (key >> (shift + w)) != st.prefix[s])) continue;
    run.add<kShared>((h << w) | digit, shared, st.hist);
    matched = true;
  }
  return matched;
}

// Copies the row out as a candidate; one atomic per warp (lanes that matched append
// together). Correct for any set of lanes that arrive together.
__device__ inline void radix_append(const RadixState& st, bool matched, uint64_t key, uint32_t group) {
  const unsigned active = __activemask();
  const unsigned want = __ballot_sync(active, matched);
  if (!want) return;
  const int lane = int(threadIdx.x & 31), leader = __ffs(want) - 1;
  u64 base = 0;
  if (lane == leader) base = atomicAdd(st.cand_n, u64(__popc(want)));
  base = __shfl_sync(active, base, leader);
  if (!matched) return;
  const u64 at = base + __popc(want & ((1u << lane) - 1));
  if (at >= st.cand_cap) return;  // cannot happen: the plan checked the exact count
  st.cand_keys[at] = key;
  if (st.cand_groups) st.cand_groups[at] = group;
}

// One histogram pass over the rows (or the candidates) for digit (key >> shift) & (2^w - 1).
template <bool kShared>
__global__ void radix_pass_kernel(ColumnInput in, uint32_t m, RadixState st, int shift, int w, bool check_prefix,
                                  uint32_t counters) {
  extern __shared__ unsigned int shared_hist[];
  if (kShared) {
    for (uint32_t b = threadIdx.x; b < counters; b += blockDim.x) shared_hist[b] = 0;
    __syncthreads();
  }
  RunCounter run;
  const int mode = *st.mode;
  if (mode == kCandidates) {
    const u64 cn = min(*st.cand_n, st.cand_cap);  // equal unless the plan's exact count were wrong
    GRID_LOOP(i, cn) {
      const uint32_t g = st.cand_groups ? st.cand_groups[i] : 0;
      radix_visit<kShared>(st, m, st.cand_keys[i], g, shift, w, check_prefix, run, shared_hist);
    }
  } else {
    // Four rows per thread per step, loaded before any is used: enough bytes in
    // flight per SM to keep the pass at memory bandwidth.
    constexpr int kUnroll = 4;
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; base < in.n; base += kUnroll * stride) {
      uint64_t key[kUnroll];
      uint32_t g[kUnroll];
      bool counts[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; k++) {
        const uint64_t i = base + k * stride;
        const bool inside = i < in.n;
        counts[k] = inside && in.counts(i);
        key[k] = inside ? in.key(i) : 0;
        g[k] = inside ? in.group(i) : 0;
      }
#pragma unroll
      for (int k = 0; k < kUnroll; k++) {
        const bool matched =
            counts[k] && radix_visit<kShared>(st, m, key[k], g[k], shift, w, check_prefix, run, shared_hist);
        if (mode == kFullRowsAndCopy) radix_append(st, matched, key[k], g[k]);
      }
    }
  }
  run.flush<kShared>(shared_hist, st.hist);
  if (kShared) {
    __syncthreads();
    for (uint32_t b = threadIdx.x; b < counters; b += blockDim.x)
      if (shared_hist[b]) atomicAdd(&st.hist[b], u64(shared_hist[b]));
  }
}

// The plain pass kernel's per-group table in shared memory, after the counters: each
// group's one owner histogram row (kNoHistogram for none) and that owner's prefix.
// Groups beyond kPlainMaxGroups take the general kernel.
constexpr uint32_t kPlainMaxGroups = 64;
__host__ __device__ constexpr uint32_t plain_table_words(uint32_t groups) {
  return (groups + 1) / 2 * 2 + 2 * groups;  // owners (padded to 8 bytes), then prefixes
}

// kPer mask bytes of rows q * kPer ... (one 4- or 2-byte load).
template <int kPer>
__device__ inline uint32_t plain_load_bytes(const uint8_t* p, uint64_t q) {
  if constexpr (kPer == 4) return __ldg(reinterpret_cast<const unsigned int*>(p) + q);
  else return __ldg(reinterpret_cast<const unsigned short*>(p) + q);
}

// kPer group ids of rows q * kPer ... (one 16- or 8-byte load).
template <int kPer>
__device__ inline void plain_load_groups(const uint32_t* p, uint64_t q, uint32_t (&g)[kPer]) {
  if constexpr (kPer == 4) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(p) + q);
    g[0] = v.x, g[1] = v.y, g[2] = v.z, g[3] = v.w;
  } else {
    const uint2 v = __ldg(reinterpret_cast<const uint2*>(p) + q);
    g[0] = v.x, g[1] = v.y;
  }
}

// The pass for the common inputs: integer keys of KeyT (flip: the sign bit for signed
// types, else 0), optionally a WHERE mask and NULLs (kMasked: their bytes read one
// 4- or 2-byte load per 16 bytes of keys) and a few groups (kGrouped: their ids read
// with 16- or 8-byte loads, each group with its own histogram in shared memory), and
// at most one owner histogram per group (a median's two ranks share it). Keys come
// four (or two) to a 16-byte load; per row a shift, a compare and a counter. The
// general kernel's per-row group, owner and type dispatch made it compute-bound at a
// fifth of the memory bandwidth (ncu: SM 63%, DRAM 18%). A group with several owners,
// or the copied-out candidates, take the general loop (decided per pass on the device).
// Dynamic shared memory: counters, then plain_table_words(groups) words.
template <bool kShared, typename KeyT, bool kMasked, bool kGrouped>
__global__ void radix_pass_plain_kernel(ColumnInput in, uint32_t m, RadixState st, int shift, int w, bool check_prefix,
                                        uint32_t counters, KeyT flip) {
  extern __shared__ unsigned int shared_hist[];
  const uint32_t groups = kGrouped ? in.groups : 1;
  uint32_t* group_h = shared_hist + counters;
  auto* group_prefix = reinterpret_cast<unsigned long long*>(group_h + (groups + 1) / 2 * 2);
  if (kShared)
    for (uint32_t b = threadIdx.x; b < counters; b += blockDim.x) shared_hist[b] = 0;
  bool several = false;
  for (uint32_t g = threadIdx.x; g < groups; g += blockDim.x) {
    uint32_t h = kNoHistogram, owners = 0;
    unsigned long long prefix = 0;
    for (uint32_t j = 0; j < m; j++)
      if (st.hidx[g * m + j] != kNoHistogram && owners++ == 0) h = st.hidx[g * m + j], prefix = st.prefix[g * m + j];
    several = several || owners > 1;
    group_h[g] = h;
    group_prefix[g] = prefix;
  }
  several = __syncthreads_or(several);
  RunCounter run;
  const int mode = *st.mode;
  if (mode == kCandidates || several) {
    const u64 n = mode == kCandidates ? min(*st.cand_n, st.cand_cap) : in.n;
    GRID_LOOP(i, n) {
      const bool cand = mode == kCandidates;
      const uint64_t key = cand ? st.cand_keys[i] : in.key(i);
      const uint32_t g = !kGrouped ? 0 : cand ? st.cand_groups[i] : in.group_ids[i];
      const bool matched =
          (cand || !kMasked || in.counts(i)) && radix_visit<kShared>(st, m, key, g, shift, w, check_prefix, run, shared_hist);
      if (mode == kFullRowsAndCopy) radix_append(st, matched, key, g);
    }
  } else {
    const uint32_t mask = (1u << w) - 1, h0 = group_h[0];
    const KeyT prefix0 = KeyT(group_prefix[0]);
    const int high = shift + w;  // < key bits whenever check_prefix
    const KeyT* keys = static_cast<const KeyT*>(in.values);
    auto visit = [&](KeyT raw, bool counts, uint32_t g) {
      const KeyT key = raw ^ flip;
      const uint32_t h = kGrouped ? group_h[g] : h0;
      const bool matched = counts && h != kNoHistogram &&
                           (!check_prefix || KeyT(key >> high) == (kGrouped ? KeyT(group_prefix[g]) : prefix0));
      if (matched) run.add<kShared>((h << w) | (uint32_t(key >> shift) & mask), shared_hist, st.hist);
      if (mode == kFullRowsAndCopy) radix_append(st, matched, uint64_t(key), g);
    };
    constexpr int kPer = 16 / int(sizeof(KeyT));  // keys per 16-byte load
    const uint64_t vectors = in.n / kPer, stride = uint64_t(gridDim.x) * blockDim.x;
    const uint4* vec = reinterpret_cast<const uint4*>(keys);  // the host checked the alignments
    // Two vectors per thread per step, loaded before either is used.
    for (uint64_t q = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; q < vectors; q += 2 * stride) {
      const bool second = q + stride < vectors;
      const uint4 a = __ldg(vec + q);
      const uint4 b = second ? __ldg(vec + q + stride) : make_uint4(0, 0, 0, 0);
      uint32_t sel_a = ~0u, sel_b = ~0u, nul_a = 0, nul_b = 0;
      uint32_t ga[kPer] = {}, gb[kPer] = {};
      if (kMasked && in.select) {
        sel_a = plain_load_bytes<kPer>(in.select, q);
        if (second) sel_b = plain_load_bytes<kPer>(in.select, q + stride);
      }
      if (kMasked && in.nulls) {
        nul_a = plain_load_bytes<kPer>(in.nulls, q);
        if (second) nul_b = plain_load_bytes<kPer>(in.nulls, q + stride);
      }
      if (kGrouped) {
        plain_load_groups<kPer>(in.group_ids, q, ga);
        if (second) plain_load_groups<kPer>(in.group_ids, q + stride, gb);
      }
      const KeyT* ka = reinterpret_cast<const KeyT*>(&a);
#pragma unroll
      for (int k = 0; k < kPer; k++)
        visit(ka[k], !kMasked || (((sel_a >> (8 * k)) & 0xff) && !((nul_a >> (8 * k)) & 0xff)), ga[k]);
      if (second) {
        const KeyT* kb = reinterpret_cast<const KeyT*>(&b);
#pragma unroll
        for (int k = 0; k < kPer; k++)
          visit(kb[k], !kMasked || (((sel_b >> (8 * k)) & 0xff) && !((nul_b >> (8 * k)) & 0xff)), gb[k]);
      }
    }
    for (uint64_t i = vectors * kPer + uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < in.n; i += stride)
      visit(keys[i], !kMasked || in.counts(i), kGrouped ? in.group_ids[i] : 0);  // the last few rows
  }
  run.flush<kShared>(shared_hist, st.hist);
  if (kShared) {
    __syncthreads();
    for (uint32_t b = threadIdx.x; b < counters; b += blockDim.x)
      if (shared_hist[b]) atomicAdd(&st.hist[b], u64(shared_hist[b]));
  }
}

// After a pass: one block per slot finds the bucket its rank falls in (a block-wide
// prefix sum over its owner's histogram), appends the digit to the prefix and makes
// the rank relative to the bucket.
__global__ void radix_choose_kernel(uint32_t slots, int w, RadixState st) {
  using Scan = cub::BlockScan<u64, kRadixChooseThreads>;
  __shared__ typename Scan::TempStorage temp;
  const uint32_t s = blockIdx.x;
  if (s >= slots) return;
  const u64 rank = st.ranks[s];
  if (rank == kNoRankRadix) return;  // uniform across the block
  const uint32_t bins = 1u << w, per = (bins + kRadixChooseThreads - 1) / kRadixChooseThreads;
  const u64* h = st.hist + (u64(st.hidx[st.owner[s]]) << w);
  const uint32_t first_bin = threadIdx.x * per;
  u64 mine = 0;
  for (uint32_t b = first_bin; b < first_bin + per && b < bins; b++) mine += h[b];
  u64 below = 0;
  Scan(temp).ExclusiveSum(mine, below);
  if (rank >= below && rank < below + mine) {
    for (uint32_t b = first_bin; b < first_bin + per && b < bins; b++) {
      if (rank < below + h[b]) {
        st.prefix[s] = (st.prefix[s] << w) | b;
        st.ranks[s] = rank - below;
        st.bucket[s] = h[b];
        break;
      }
      below += h[b];
    }
  }
}

// After choosing (one thread; slots <= 4096): the owners of the next pass (the first
// earlier slot of the group with an equal prefix, else the slot itself), their
// histogram rows, and the next mode: copy the candidates out once the rows matching
// an owner (the sum of the owners' bucket sizes, exact since owners' prefixes differ)
// fit the buffer; read only them after the pass that copied them.
__global__ void radix_plan_kernel(uint32_t groups, uint32_t m, RadixState st) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  uint32_t owners = 0;
  u64 need = 0;
  for (uint32_t g = 0; g < groups; g++) {
    for (uint32_t j = 0; j < m; j++) {
      const uint32_t s = g * m + j;
      st.owner[s] = s;
      st.hidx[s] = kNoHistogram;
      if (st.ranks[s] == kNoRankRadix) continue;
      uint32_t o = s;
      for (uint32_t k = 0; k < j && o == s; k++)
        if (st.ranks[g * m + k] != kNoRankRadix && st.prefix[g * m + k] == st.prefix[s]) o = st.owner[g * m + k];
      st.owner[s] = o;
      if (o == s) {
        st.hidx[s] = owners++;
        need += st.bucket[s];
      }
    }
  }
  if (*st.mode == kFullRowsAndCopy) *st.mode = kCandidates;
  else if (*st.mode == kFullRows && need <= st.cand_cap) *st.mode = kFullRowsAndCopy;
}

}  // namespace raydb::exec::cuda::ops
