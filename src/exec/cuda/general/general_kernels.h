#pragma once
// Host entry points of the general path's kernels and device-wide primitives (CUB).
// Launches are asynchronous on `stream` unless they return a count, which they copy
// back (synchronizing). Temporary device memory comes from the accounted pool.
#include <cuda_runtime.h>

#include <cstdint>

#include "exec/cuda/general/device_program.h"

namespace raydb::exec::cuda::general {

constexpr int kMaxKeyColumns = 8;

// Program results: values[i] (stored integer form in int128) and nulls[i]; or, in
// predicate mode (keep != null), keep[i] = value is TRUE. `only`: run row `only` alone
// (the error report pass, device_program.h).
void launch_program(const DevProgram& p, const uint32_t* const* rows, uint64_t n, __int128* values, uint8_t* nulls,
                    uint8_t* keep, DevError* err, cudaStream_t s, uint64_t only = ~0ull);

// out[i] = i + first.
void launch_iota(uint32_t* out, uint64_t n, uint32_t first, cudaStream_t s);
// out[i] = src[idx[i]].
void launch_gather_u32(const uint32_t* src, const uint32_t* idx, uint64_t n, uint32_t* out, cudaStream_t s);
void launch_gather_i128(const __int128* src, const uint8_t* src_nulls, const uint32_t* idx, uint64_t n, __int128* out,
                        uint8_t* out_nulls, cudaStream_t s);

// Positions i with flags[i] != 0, ascending, into out; returns their number.
uint64_t select_flagged(const uint8_t* flags, uint64_t n, uint32_t* out, cudaStream_t s);
// Positions i with values[i] != absent, ascending, into out; returns their number.
uint64_t select_present(const uint32_t* values, uint32_t absent, uint64_t n, uint32_t* out, cudaStream_t s);

// Join keys: the values of up to kMaxKeyColumns programs per row.
struct KeyColumns {
  const __int128* values[kMaxKeyColumns] = {};
  const uint8_t* nulls[kMaxKeyColumns] = {};
  int width = 0;
};
// Build side: hash[i] and valid[i] (no key is NULL); then (hash, position) sorted by hash.
void launch_join_hash(const KeyColumns& k, uint64_t n, unsigned long long* hash, uint8_t* valid, cudaStream_t s);
void sort_pairs_u64(const unsigned long long* keys_in, unsigned long long* keys_out, const uint32_t* vals_in,
                    uint32_t* vals_out, uint64_t n, cudaStream_t s);
// Probe side: count[i] = matching build rows of probe row i; then, with offsets (the
// exclusive scan of the counts), src/dst pairs: probe row and build row id.
struct JoinBuild {
  KeyColumns keys;
  const uint8_t* valid = nullptr;
  const unsigned long long* hash = nullptr;  // sorted
  const uint32_t* pos = nullptr;             // build positions in hash order
  const uint32_t* rows = nullptr;            // build position -> row id of the build table
  uint64_t n = 0;
};
void launch_join_count(const KeyColumns& probe, uint64_t n, const JoinBuild& b, unsigned long long* count,
                       cudaStream_t s);
// Exclusive prefix sum in place-out; returns the total.
uint64_t exclusive_sum_u64(const unsigned long long* in, unsigned long long* out, uint64_t n, cudaStream_t s);
void launch_join_write(const KeyColumns& probe, uint64_t n, const JoinBuild& b, const unsigned long long* offsets,
                       uint32_t* out_src, uint32_t* out_rows, cudaStream_t s);

// Grouping: key_out[i] = (int64) values[perm[i]] (0 where NULL), null_out[i] = nulls[perm[i]].
void launch_gather_key(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n, long long* key_out,
                       uint8_t* null_out, cudaStream_t s);
// Stable sorts of (key, payload) pairs.
void sort_pairs_i64(const long long* keys_in, long long* keys_out, const uint32_t* vals_in, uint32_t* vals_out,
                    uint64_t n, cudaStream_t s);
void sort_pairs_u8(const uint8_t* keys_in, uint8_t* keys_out, const uint32_t* vals_in, uint32_t* vals_out, uint64_t n,
                   cudaStream_t s);
void sort_pairs_u32_i64(const uint32_t* keys_in, uint32_t* keys_out, const long long* vals_in, long long* vals_out,
                        uint64_t n, cudaStream_t s);
// head[i] = 1 where sorted row i starts a group (some key differs from row i-1).
void launch_group_heads(const KeyColumns& k, const uint32_t* perm, uint64_t n, uint32_t* head, cudaStream_t s);
// Inclusive prefix sum; returns the last element (the number of groups).
uint64_t inclusive_sum_u32(const uint32_t* in, uint32_t* out, uint64_t n, cudaStream_t s);
// gid[perm[i]] = scan[i] - 1; first[scan[i] - 1] = perm[i] where head[i].
void launch_group_ids(const uint32_t* perm, const uint32_t* head, const uint32_t* scan, uint64_t n, uint32_t* gid,
                      uint32_t* first, cudaStream_t s);

// Aggregate accumulators per group (count, int128 sum as low word + high word, and
// the extreme values for MIN/MAX). func: 0 COUNT(*), 1 COUNT, 2 SUM/AVG, 3 MIN, 4 MAX.
struct AggAccumulators {
  unsigned long long* count = nullptr;
  unsigned long long* sum_lo = nullptr;
  unsigned long long* sum_hi = nullptr;
  // 128-bit arguments: the word above the high word, so the sum is exact in 192 bits
  // (null for 64-bit arguments: 2^64 rows of int64 values cannot leave int128).
  unsigned long long* sum_top = nullptr;
  long long* extreme = nullptr;
};
// `groups`: the accumulators' size; up to kSharedAggregateGroups each block folds into
// shared memory first (unknown: ~0ull, the per-row global atomics).
constexpr uint64_t kSharedAggregateGroups = 1024;
void launch_aggregate(int func, const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                      const AggAccumulators& acc, cudaStream_t s, uint64_t groups = ~0ull);
void launch_fill_i64(long long* p, uint64_t n, long long v, cudaStream_t s);
// COUNT(DISTINCT): gid_key[i] = NULL argument ? UINT32_MAX : gid[i]; value[i] = (int64) argument.
void launch_distinct_keys(const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                          uint32_t* gid_key, long long* value, cudaStream_t s);
// Over (gid, value) pairs sorted by gid then value: count[gid] += 1 per new pair.
void launch_distinct_count(const uint32_t* gid, const long long* value, uint64_t n, unsigned long long* count,
                           cudaStream_t s);

// ORDER BY on the device (stable LSD radix passes over a row permutation, last key
// first). key[i]: the key of row perm[i] as an unsigned word in the CPU's order for one
// pass; mode 0: int64 value, 1: low word of an int128, 2: its high word, 3: DOUBLE
// (-0 as +0); 0 where NULL; complemented when desc.
void launch_order_key(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n, int mode,
                      bool desc, unsigned long long* key, cudaStream_t s);
// key[i] = (row perm[i] is NULL) != nulls_first: the ORDER BY item's NULLS FIRST|LAST
// (PostgreSQL's default, last ascending and first descending, set by the binder).
void launch_order_null(const uint8_t* nulls, const uint32_t* perm, uint64_t n, bool nulls_first, uint8_t* key,
                       cudaStream_t s);
// *flag = 1 when some non-NULL DOUBLE value is a NaN (the CPU's comparator is no
// order there, so such sorts stay on the host).
void launch_any_nan(const __int128* values, const uint8_t* nulls, uint64_t n, int* flag, cudaStream_t s);

}  // namespace raydb::exec::cuda::general
