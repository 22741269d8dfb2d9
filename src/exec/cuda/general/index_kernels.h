#pragma once
// Kernels of the general path's index steps (index_steps.h): probe keys turned into
// index lookups, runs of sorted positions expanded into row ids, and the ascending
// sort of an index scan's candidates. Asynchronous on `stream`; scratch memory from
// the accounted pool.
#include <cuda_runtime.h>

#include <cstdint>

#include "rt/mapping/key_lookup.h"

namespace raydb::exec::cuda::general {

// How a column's stored values map to the index's normalized keys (access/rt_index/
// key_codec.h): kSigned32 (INTEGER, DATE): v ^ 2^31 over int32; kSigned64 (BIGINT,
// DECIMAL): v ^ 2^63 over int64; kUnsigned32 (dictionary codes): v over [0, 2^32).
enum class ProbeCodec : int { kSigned32, kSigned64, kUnsigned32 };

// bounds[2i] = bounds[2i+1] = key of probe value i; a NULL probe or one outside the
// codec's domain (it equals no stored value) becomes the empty lookup [1, 0].
void launch_probe_bounds(const __int128* values, const uint8_t* nulls, uint64_t n, ProbeCodec codec,
                         unsigned long long* bounds, cudaStream_t s);

// Output position o (of `total`) belongs to lookup i, the last with offsets[i] <= o
// (offsets: exclusive sums of the lookups' counts, n of them):
// rows_out[o] = sorted_rows[runs[i].begin + o - offsets[i]], and src_out[o] = i when
// src_out is not null.
void launch_expand_runs(const unsigned long long* offsets, const rt::mapping::KeyRun* runs, uint64_t n,
                        const uint32_t* sorted_rows, uint64_t total, uint32_t* rows_out, uint32_t* src_out,
                        cudaStream_t s);

// A bit vector (bit i of words[i / 64] is row i) into its set rows, ascending:
// counts[w] = popcount(words[w]) (launch_word_counts), then, with offsets the exclusive
// sums of the counts, word w writes its rows at rows_out[offsets[w]...].
void launch_word_counts(const uint64_t* words, uint64_t n_words, unsigned long long* counts, cudaStream_t s);
void launch_expand_words(const uint64_t* words, const unsigned long long* offsets, uint64_t n_words,
                         uint32_t* rows_out, cudaStream_t s);

// Sorts n row ids ascending (CUB radix sort over the bits below `bound`), in -> out.
void sort_row_ids(const uint32_t* in, uint32_t* out, uint64_t n, uint64_t bound, cudaStream_t s);

}  // namespace raydb::exec::cuda::general
