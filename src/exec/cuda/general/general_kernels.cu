// Kernels of the general CUDA path (general_kernels.h): the expression interpreter
// over joined rows, join build/probe over sorted hashes, grouping and aggregation.
// Grid-stride loops with 64-bit indices; one thread per row.
#include <algorithm>

#include "exec/cuda/general/general_kernels.h"
#include "gpu/launch.cuh"
#include "exec/cuda/general/key_columns.cuh"
#include "exec/cuda/general/program_interpreter.cuh"

namespace raydb::exec::cuda::general {

namespace {

__device__ __forceinline__ void program_row(const DevProgram& p, const uint32_t* const* rows, uint64_t i, i128* values,
                                            uint8_t* nulls, uint8_t* keep, DevError* err) {
  i128 v = 0;
  bool nl = true;
  if (!run_program(p, JoinedRow{rows, i}, i, v, nl, err)) return;
  if (keep) {
    keep[i] = !nl && v != 0;
  } else {
    values[i] = v;
    nulls[i] = nl;
  }
}

__global__ void program_kernel(DevProgram p, const uint32_t* const* rows, uint64_t n, i128* values, uint8_t* nulls,
                               uint8_t* keep, DevError* err) {
  GRID_LOOP(i, n) program_row(p, rows, i, values, nulls, keep, err);
}

// The error report pass: one row alone.
__global__ void program_row_kernel(DevProgram p, const uint32_t* const* rows, uint64_t i, i128* values,
                                   uint8_t* nulls, uint8_t* keep, DevError* err) {
  program_row(p, rows, i, values, nulls, keep, err);
}

__global__ void iota_kernel(uint32_t* out, uint64_t n, uint32_t first) {
  GRID_LOOP(i, n) out[i] = uint32_t(i) + first;
}

__global__ void gather_u32_kernel(const uint32_t* src, const uint32_t* idx, uint64_t n, uint32_t* out) {
  GRID_LOOP(i, n) out[i] = src[idx[i]];
}

__global__ void gather_i128_kernel(const i128* src, const uint8_t* src_nulls, const uint32_t* idx, uint64_t n, i128* out,
                                   uint8_t* out_nulls) {
  GRID_LOOP(i, n) {
    out[i] = src[idx[i]];
    out_nulls[i] = src_nulls[idx[i]];
  }
}

// One key: the value itself, so a single-column join sorts by key. Several: a mix
// (equal keys give equal hashes; candidates are checked column by column).
__device__ __forceinline__ unsigned long long key_hash(const KeyColumns& k, uint64_t i, bool& valid) {
  valid = true;
  unsigned long long h = 0x9E3779B97F4A7C15ull;
  for (int c = 0; c < k.width; c++) {
    if (k.nulls[c][i]) valid = false;
    const i128 v = k.values[c][i];
    unsigned long long w = (unsigned long long)(long long)v;
    // 128-bit keys beyond int64: their high word too (int64 values keep w as is).
    if (i128((long long)v) != v) w ^= (unsigned long long)(v >> 64) * 0x94D049BB133111EBull;
    if (k.width == 1) return w;
    h ^= w + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

__global__ void join_hash_kernel(KeyColumns k, uint64_t n, unsigned long long* hash, uint8_t* valid) {
  GRID_LOOP(i, n) {
    bool ok;
    hash[i] = key_hash(k, i, ok);
    valid[i] = ok;
  }
}

__device__ __forceinline__ uint64_t lower_bound_u64(const unsigned long long* a, uint64_t n, unsigned long long x) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const uint64_t mid = (lo + hi) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

template <bool kWrite>
__global__ void join_probe_kernel(KeyColumns probe, uint64_t n, JoinBuild b, unsigned long long* count,
                                  const unsigned long long* offsets, uint32_t* out_src, uint32_t* out_rows) {
  GRID_LOOP(i, n) {
    bool ok;
    const unsigned long long h = key_hash(probe, i, ok);
    unsigned long long m = 0;
    if (ok) {
      unsigned long long o = kWrite ? offsets[i] : 0;
      for (uint64_t k = lower_bound_u64(b.hash, b.n, h); k < b.n && b.hash[k] == h; k++) {
        const uint32_t pos = b.pos[k];
        if (!b.valid[pos] || !keys_equal(probe, i, b.keys, pos)) continue;
        if (kWrite) {
          out_src[o + m] = uint32_t(i);
          out_rows[o + m] = b.rows[pos];
        }
        m++;
      }
    }
    if (!kWrite) count[i] = m;
  }
}

__global__ void gather_key_kernel(const i128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n,
                                  long long* key_out, uint8_t* null_out) {
  GRID_LOOP(i, n) {
    const uint32_t r = perm[i];
    const bool nl = nulls[r];
    key_out[i] = nl ? 0 : (long long)values[r];
    if (null_out) null_out[i] = nl;
  }
}

__global__ void group_heads_kernel(KeyColumns k, const uint32_t* perm, uint64_t n, uint32_t* head) {
  GRID_LOOP(i, n) {
    uint32_t h = i == 0 ? 1 : 0;
    if (i > 0) {
      const uint32_t a = perm[i - 1], b = perm[i];
      for (int c = 0; c < k.width && !h; c++) {
        const bool an = k.nulls[c][a], bn = k.nulls[c][b];
        if (an != bn || (!an && k.values[c][a] != k.values[c][b])) h = 1;
      }
    }
    head[i] = h;
  }
}

__global__ void group_ids_kernel(const uint32_t* perm, const uint32_t* head, const uint32_t* scan, uint64_t n,
                                 uint32_t* gid, uint32_t* first) {
  GRID_LOOP(i, n) {
    const uint32_t g = scan[i] - 1;
    gid[perm[i]] = g;
    if (head[i]) first[g] = perm[i];
  }
}

__global__ void aggregate_kernel(int func, const uint32_t* gid, const i128* values, const uint8_t* nulls, uint64_t n,
                                 AggAccumulators acc) {
  GRID_LOOP(i, n) {
    const uint32_t g = gid ? gid[i] : 0;
    if (func == 0) {
      atomicAdd(acc.count + g, 1ull);
      continue;
    }
    if (nulls[i]) continue;
    atomicAdd(acc.count + g, 1ull);
    const i128 v = values[i];
    if (func == 2) {
      // Exact sum: low words add with carry into the high word, and (128-bit
      // arguments) its carry plus the sign extension into the top word, so the
      // 192-bit total is exact in any order; the host raises the CPU's overflow
      // error when it leaves int128.
      const unsigned long long lo = (unsigned long long)(uint64_t(u128(v)));
      const unsigned long long hi = (unsigned long long)(uint64_t(u128(v) >> 64));
      const unsigned long long old = atomicAdd(acc.sum_lo + g, lo);
      const unsigned long long carry = old + lo < old ? 1ull : 0ull;
      const unsigned long long add_hi = hi + carry;  // wraps to 0 when hi = ~0 and carry = 1
      unsigned long long top = (v < 0 ? ~0ull : 0ull) + (add_hi < hi ? 1ull : 0ull);
      if (add_hi) {
        const unsigned long long old_hi = atomicAdd(acc.sum_hi + g, add_hi);
        top += old_hi + add_hi < old_hi ? 1ull : 0ull;
      }
      if (acc.sum_top && top) atomicAdd(acc.sum_top + g, top);
    } else if (func == 3) {
      atomicMin(acc.extreme + g, (long long)v);
    } else if (func == 4) {
      atomicMax(acc.extreme + g, (long long)v);
    }
  }
}

// aggregate_kernel over few groups: each block folds its rows into shared words (the
// same exact carries, into shared memory), then adds them to the global accumulators
// once per group. Per-row global atomics on a few hundred addresses serialized in L2:
// TPC-H q9's 6.5 M rows into 175 groups took 2.2 ms at SF 20.
__global__ void aggregate_shared_kernel(int func, const uint32_t* gid, const i128* values, const uint8_t* nulls,
                                        uint64_t n, uint32_t groups, AggAccumulators acc) {
  extern __shared__ unsigned long long sh[];
  unsigned long long* s_count = sh;
  unsigned long long* s_lo = sh + groups;  // SUM: lo, hi, top; MIN/MAX: the extreme
  unsigned long long* s_hi = sh + 2 * groups;
  unsigned long long* s_top = sh + 3 * groups;
  long long* s_ext = reinterpret_cast<long long*>(s_lo);
  for (uint32_t g = threadIdx.x; g < groups; g += blockDim.x) {
    s_count[g] = 0;
    if (func == 2) s_lo[g] = s_hi[g] = s_top[g] = 0;
    if (func == 3) s_ext[g] = INT64_MAX;
    if (func == 4) s_ext[g] = INT64_MIN;
  }
  __syncthreads();
  GRID_LOOP(i, n) {
    const uint32_t g = gid ? gid[i] : 0;
    if (func != 0 && nulls[i]) continue;
    atomicAdd(s_count + g, 1ull);
    if (func < 2) continue;
    const i128 v = values[i];
    if (func == 2) {  // as aggregate_kernel, into the shared words
      const unsigned long long lo = (unsigned long long)(uint64_t(u128(v)));
      const unsigned long long hi = (unsigned long long)(uint64_t(u128(v) >> 64));
      const unsigned long long old = atomicAdd(s_lo + g, lo);
      const unsigned long long add_hi = hi + (old + lo < old ? 1ull : 0ull);
      unsigned long long top = (v < 0 ? ~0ull : 0ull) + (add_hi < hi ? 1ull : 0ull);
      if (add_hi) {
        const unsigned long long old_hi = atomicAdd(s_hi + g, add_hi);
        top += old_hi + add_hi < old_hi ? 1ull : 0ull;
      }
      if (acc.sum_top && top) atomicAdd(s_top + g, top);
    } else if (func == 3) {
      atomicMin(s_ext + g, (long long)v);
    } else {
      atomicMax(s_ext + g, (long long)v);
    }
  }
  __syncthreads();
  for (uint32_t g = threadIdx.x; g < groups; g += blockDim.x) {
    if (s_count[g] == 0) continue;
    atomicAdd(acc.count + g, s_count[g]);
    if (func == 2) {
      // The block's 192-bit total (top:hi:lo) into the global one, carries included.
      const unsigned long long lo = s_lo[g], hi = s_hi[g];
      const unsigned long long old = atomicAdd(acc.sum_lo + g, lo);
      const unsigned long long add_hi = hi + (old + lo < old ? 1ull : 0ull);
      unsigned long long top = s_top[g] + (add_hi < hi ? 1ull : 0ull);
      if (add_hi) {
        const unsigned long long old_hi = atomicAdd(acc.sum_hi + g, add_hi);
        top += old_hi + add_hi < old_hi ? 1ull : 0ull;
      }
      if (acc.sum_top && top) atomicAdd(acc.sum_top + g, top);
    } else if (func == 3) {
      atomicMin(acc.extreme + g, s_ext[g]);
    } else if (func == 4) {
      atomicMax(acc.extreme + g, s_ext[g]);
    }
  }
}

__global__ void fill_i64_kernel(long long* p, uint64_t n, long long v) {
  GRID_LOOP(i, n) p[i] = v;
}

__global__ void distinct_keys_kernel(const uint32_t* gid, const i128* values, const uint8_t* nulls, uint64_t n,
                                     uint32_t* gid_key, long long* value) {
  GRID_LOOP(i, n) {
    const bool nl = nulls[i];
    gid_key[i] = nl ? 0xffffffffu : (gid ? gid[i] : 0);
    value[i] = nl ? 0 : (long long)values[i];
  }
}

__global__ void distinct_count_kernel(const uint32_t* gid, const long long* value, uint64_t n,
                                      unsigned long long* count) {
  GRID_LOOP(i, n) {
    const uint32_t g = gid[i];
    if (g == 0xffffffffu) continue;  // NULL arguments sort last and count nothing
    if (i == 0 || gid[i - 1] != g || value[i - 1] != value[i]) atomicAdd(count + g, 1ull);
  }
}

// ORDER BY (one radix pass): perm[i]'s key as an unsigned word whose ascending order
// is the CPU comparator's (result_finisher). mode 0: int64 value (sign flipped);
// 1: low word of an int128 (unsigned); 2: its high word (sign flipped); 3: DOUBLE bits
// (IEEE total order, -0 as +0 since the CPU compares them equal). NULL rows get 0
// (they tie among themselves); DESC complements.
__global__ void order_key_kernel(const i128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n, int mode,
                                 bool desc, unsigned long long* key) {
  constexpr unsigned long long kSign = 1ull << 63;
  GRID_LOOP(i, n) {
    const uint32_t r = perm[i];
    unsigned long long w = 0;
    if (!nulls[r]) {
      const i128 v = values[r];
      const unsigned long long lo = (unsigned long long)v;
      if (mode == 0) {
        w = lo ^ kSign;
      } else if (mode == 1) {
        w = lo;
      } else if (mode == 2) {
        w = (unsigned long long)(v >> 64) ^ kSign;
      } else {
        const unsigned long long b = lo == kSign ? 0 : lo;
        w = (b & kSign) ? ~b : (b | kSign);
      }
      if (desc) w = ~w;
    }
    key[i] = w;
  }
}

// The NULL flag of perm[i]'s key: 0 for the rows that come first (NULLs when
// nulls_first, else values), 1 for the others.
__global__ void order_null_kernel(const uint8_t* nulls, const uint32_t* perm, uint64_t n, bool nulls_first,
                                  uint8_t* key) {
  GRID_LOOP(i, n) key[i] = uint8_t((nulls[perm[i]] != 0) != nulls_first);
}

__global__ void any_nan_kernel(const i128* values, const uint8_t* nulls, uint64_t n, int* flag) {
  GRID_LOOP(i, n) {
    const unsigned long long b = (unsigned long long)values[i];
    if (!nulls[i] && (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (b & 0x000FFFFFFFFFFFFFull)) *flag = 1;
  }
}

}  // namespace

void launch_program(const DevProgram& p, const uint32_t* const* rows, uint64_t n, __int128* values, uint8_t* nulls,
                    uint8_t* keep, DevError* err, cudaStream_t s, uint64_t only) {
  if (only != ~0ull) {
    if (only < n) program_row_kernel<<<1, 1, 0, s>>>(p, rows, only, values, nulls, keep, err);
    return;
  }
  if (n) program_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(p, rows, n, values, nulls, keep, err);
}
void launch_iota(uint32_t* out, uint64_t n, uint32_t first, cudaStream_t s) {
  if (n) iota_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(out, n, first);
}
void launch_gather_u32(const uint32_t* src, const uint32_t* idx, uint64_t n, uint32_t* out, cudaStream_t s) {
  if (n) gather_u32_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(src, idx, n, out);
}
void launch_gather_i128(const __int128* src, const uint8_t* src_nulls, const uint32_t* idx, uint64_t n, __int128* out,
                        uint8_t* out_nulls, cudaStream_t s) {
  if (n) gather_i128_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(src, src_nulls, idx, n, out, out_nulls);
}
void launch_join_hash(const KeyColumns& k, uint64_t n, unsigned long long* hash, uint8_t* valid, cudaStream_t s) {
  if (n) join_hash_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(k, n, hash, valid);
}
void launch_join_count(const KeyColumns& probe, uint64_t n, const JoinBuild& b, unsigned long long* count,
                       cudaStream_t s) {
  if (n) join_probe_kernel<false><<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(probe, n, b, count, nullptr, nullptr, nullptr);
}
void launch_join_write(const KeyColumns& probe, uint64_t n, const JoinBuild& b, const unsigned long long* offsets,
                       uint32_t* out_src, uint32_t* out_rows, cudaStream_t s) {
  if (n) join_probe_kernel<true><<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(probe, n, b, nullptr, offsets, out_src, out_rows);
}
void launch_gather_key(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n, long long* key_out,
                       uint8_t* null_out, cudaStream_t s) {
  if (n) gather_key_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, nulls, perm, n, key_out, null_out);
}
void launch_group_heads(const KeyColumns& k, const uint32_t* perm, uint64_t n, uint32_t* head, cudaStream_t s) {
  if (n) group_heads_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(k, perm, n, head);
}
void launch_group_ids(const uint32_t* perm, const uint32_t* head, const uint32_t* scan, uint64_t n, uint32_t* gid,
                      uint32_t* first, cudaStream_t s) {
  if (n) group_ids_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(perm, head, scan, n, gid, first);
}
void launch_aggregate(int func, const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                      const AggAccumulators& acc, cudaStream_t s, uint64_t groups) {
  if (n == 0) return;
  if (groups <= kSharedAggregateGroups) {
    // A few blocks per SM: each adds its groups once to the global words at the end.
    const unsigned blocks = std::min<unsigned>(gpu::grid_blocks(n), unsigned(gpu::sm_count()) * 8);
    const size_t shared = size_t(std::max<uint64_t>(groups, 1)) * 4 * 8;
    aggregate_shared_kernel<<<blocks, gpu::kThreads, shared, s>>>(func, gid, values, nulls, n,
                                                                   uint32_t(std::max<uint64_t>(groups, 1)), acc);
    return;
  }
  aggregate_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(func, gid, values, nulls, n, acc);
}
void launch_fill_i64(long long* p, uint64_t n, long long v, cudaStream_t s) {
  if (n) fill_i64_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(p, n, v);
}
void launch_distinct_keys(const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                          uint32_t* gid_key, long long* value, cudaStream_t s) {
  if (n) distinct_keys_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(gid, values, nulls, n, gid_key, value);
}
void launch_distinct_count(const uint32_t* gid, const long long* value, uint64_t n, unsigned long long* count,
                           cudaStream_t s) {
  if (n) distinct_count_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(gid, value, n, count);
}

void launch_order_key(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n, int mode,
                      bool desc, unsigned long long* key, cudaStream_t s) {
  if (n) order_key_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, nulls, perm, n, mode, desc, key);
}
void launch_order_null(const uint8_t* nulls, const uint32_t* perm, uint64_t n, bool nulls_first, uint8_t* key,
                       cudaStream_t s) {
  if (n) order_null_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(nulls, perm, n, nulls_first, key);
}
void launch_any_nan(const __int128* values, const uint8_t* nulls, uint64_t n, int* flag, cudaStream_t s) {
  if (n) any_nan_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(values, nulls, n, flag);
}

}  // namespace raydb::exec::cuda::general
