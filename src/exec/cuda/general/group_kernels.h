#pragma once
// Kernels of the general path's GROUP BY / aggregate shapes beyond integers: DOUBLE
// and 128-bit keys, exact SUM over DOUBLE, MIN/MAX over DOUBLE and 128-bit values,
// DISTINCT of any kind. Values are program results (general_kernels.h): the stored
// integer form in int128, DOUBLE as its bits in the low word (sign-extended).
// Asynchronous on `s` unless noted.
#include <cuda_runtime.h>

#include <cstdint>

namespace raydb::exec::cuda::general {

// In place, DOUBLE values to same_value_bits (-0.0 -> +0.0, one NaN) and NULL slots
// to 0: the CPU key encoder's notion of equal keys (GROUP BY, joins).
void launch_normalize_doubles(__int128* values, const uint8_t* nulls, uint64_t n, cudaStream_t s);
// key_out[i] = high 64 bits of values[perm[i]] (0 where NULL): the extra radix pass of
// 128-bit GROUP BY keys.
void launch_gather_key_hi(const __int128* values, const uint8_t* nulls, const uint32_t* perm, uint64_t n,
                          long long* key_out, cudaStream_t s);

// out[i] = the DOUBLE values[i] as a signed int64 whose order is double_order_key's
// (MIN/MAX over DOUBLE through the integer atomics); decode with order_key_to_double.
void launch_double_order_keys(const __int128* values, uint64_t n, __int128* out, cudaStream_t s);
// out[i] = the low 64 bits of values[i]: an int64 value, a DOUBLE's bits or a code,
// as the order statistics' 64-bit keys read them (exec/core/order_statistics/order_key.h).
void launch_low_words(const __int128* values, uint64_t n, unsigned long long* out, cudaStream_t s);
double order_key_to_double(long long key);

// MIN/MAX over 128-bit values per group: first the extreme high word (signed), then the
// extreme low word (unsigned) among rows with that high word. hi/lo prefilled by the
// caller: MIN INT64_MAX / UINT64_MAX, MAX INT64_MIN / 0.
void launch_extreme_i128(bool is_min, const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                         long long* hi, unsigned long long* lo, cudaStream_t s);
void launch_fill_u64(unsigned long long* p, uint64_t n, unsigned long long v, cudaStream_t s);

// Exact SUM over DOUBLE (exec/core/exact_double_sum.h) per group. Rows are visited in
// `order` (positions -> rows; null: identity), in which each group's rows are
// contiguous; gid per row (null: one group). Each thread sums a chunk of `chunk`
// positions in a local accumulator: a group entirely inside one chunk is rounded
// right there; a group crossing chunks adds its partial sums (limb atomics) into the
// spill slot of the chunk where it starts, rounded by a second kernel. Memory is one
// accumulator per chunk, whatever the number of groups. out: result bits per group.
void launch_exact_double_sum(const uint32_t* gid, const uint32_t* order, const __int128* values, const uint8_t* nulls,
                             uint64_t n, uint64_t groups, unsigned long long* out_bits, cudaStream_t s);

// DISTINCT: the rows holding the first occurrence of each (group, value) pair, value
// normalized as the CPU's DISTINCT (same_value_bits for DOUBLE); NULL values dropped.
// Writes, per kept pair in (group, value) order, its gid and normalized value; returns
// their number (synchronizes). Buffers of n entries.
uint64_t distinct_pairs(bool is_double, const uint32_t* gid, const __int128* values, const uint8_t* nulls, uint64_t n,
                        uint32_t* out_gid, __int128* out_values, cudaStream_t s);

}  // namespace raydb::exec::cuda::general
