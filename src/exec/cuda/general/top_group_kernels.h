#pragma once
// Kernels of the device top-groups decision (top_group_pick.h): per group, the first
// ORDER BY item's value (a COUNT or an exact integer SUM) as an unsigned 128-bit word
// in the item's order, the candidates' flags, and the per-group accumulator words of
// the candidates only. Asynchronous on `s` unless noted.
#include <cuda_runtime.h>

#include <cstdint>

namespace raydb::exec::cuda::general {

// The ranked value of each group. sum_lo null: COUNT, the value is count[g] (never
// NULL). Otherwise an int128 SUM (hi:lo two's complement; sum_top, when not null, the
// word above it as launch_aggregate keeps it for 128-bit arguments), NULL where count[g]
// is 0. key[g]: the value with the sign bit flipped (signed order as unsigned),
// complemented when `desc`, so ascending keys are the item's order; all ones where NULL.
// stats[0] += NULL groups; stats[1] = 1 when some non-NULL SUM leaves int128 (its
// wrap count, AggregateStates::load, is not 0), or leaves int64 with `int64_result`:
// the CPU's finalize raises there, so the caller falls back to it.
void launch_top_keys(const unsigned long long* count, const unsigned long long* sum_lo, const unsigned long long* sum_hi,
                     const unsigned long long* sum_top, uint64_t groups, bool desc, bool int64_result,
                     unsigned __int128* key, unsigned long long* stats, cudaStream_t s);

// flag[g] = NULL ? nulls_in : values_in && key[g] <= threshold (NULL: `nullable` and
// count[g] is 0).
void launch_top_flags(const unsigned __int128* key, const unsigned long long* count, bool nullable, uint64_t groups,
                      unsigned __int128 threshold, bool nulls_in, bool values_in, uint8_t* flag, cudaStream_t s);

// Ascending radix sort of n 128-bit keys (CUB), out of place.
void sort_keys_u128(const unsigned __int128* in, unsigned __int128* out, uint64_t n, cudaStream_t s);

// The CPU's packed GROUP BY words (exec/core/key_encoder.h) of n groups whose int64 keys
// are values[k][i]: sum over k of (values[k][i] - mins[k]) << shifts[k], as uint64.
// At most 8 keys.
void launch_packed_words(const __int128* const* values, const long long* mins, const int* shifts, int nkeys,
                         uint64_t n, unsigned long long* out, cudaStream_t s);

// out[i] = src[idx[i]] for 64-bit words.
void launch_gather_u64(const unsigned long long* src, const uint32_t* idx, uint64_t n, unsigned long long* out,
                       cudaStream_t s);

}  // namespace raydb::exec::cuda::general
