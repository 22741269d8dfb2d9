#pragma once
// Host entry points of the CUDA kernels (kernels.cu). Launches are asynchronous on
// `stream`; errors surface through check_cuda at the next synchronizing call.
#include <cuda_runtime.h>

#include <atomic>

#include "exec/cuda/kernel_params.h"

namespace raydb::exec::cuda {

// Dimension side (DESIGN decision 5): filter rows, write lookup[key - min] = local
// group code and mark the codes present; then rank the present codes densely and
// rewrite the lookup array with dense codes.
void launch_dim_build(const DimParams& p, cudaStream_t stream);
// flags[0, range) -> dense[code] (rank among present codes), inv[rank] = code,
// *count = number of present codes. One block; range is small (dictionary sizes).
void launch_dim_rank(const uint32_t* flags, uint64_t range, int32_t* dense, int32_t* inv, unsigned long long* count,
                     cudaStream_t stream);
void launch_dim_remap(int32_t* lookup, uint64_t n, const int32_t* dense, cudaStream_t stream);
// out[c] = lookup[decode[c] - key_min] (or -1 outside the key range): a lookup array
// indexed by a dictionary-encoded foreign key's codes.
void launch_translate(const int32_t* lookup, int64_t key_min, uint64_t key_range, const int64_t* decode, uint64_t n,
                      int32_t* out, cudaStream_t stream);

// The fused fact kernel: filter -> probe -> group code -> aggregate, one pass.
// Returns the shared memory bytes it needs for p.mode (0 in modes 2 and 3).
size_t star_shared_bytes(const StarParams& p);
// Switches of the star kernels (the settings cuda_smem_lookup, cuda_rowshape and
// cuda_layout), for measuring each technique.
struct StarKnobs {
  bool smem_lookup = true;  // lookups that fit go to shared memory
  bool rowshape = true;     // col, col op col aggregates evaluated per row, loads first
  bool blocked = true;      // blocked (else striped) tiles
  bool tile_aggregate = true;  // one group, column-shaped aggregates: dense tiles folded from vector loads
};
// `packed` (or null): packed copies of fact columns. Used when the launch runs in the
// blocked layout on 32-bit values: those columns are then read packed by the packed
// instantiations (block/load.cuh Layout::kPacked); otherwise every column is read
// unpacked, by the same kernels as without them. True when packed columns were read.
bool launch_star(const StarParams& p, const StarKnobs& knobs, cudaStream_t stream,
                 const PackedCols* packed = nullptr);
// Packs a narrowed device column (`rows` stored values of `width` bytes) into `words`
// (packed_words(rows, bits) words, storage/packed_layout.h), on `stream`.
void launch_pack(const void* data, int width, uint64_t rows, int bits, uint32_t* words, cudaStream_t stream);
// Loads the fused fact kernels of the default shapes and the dimension kernels ahead of
// their first launch (the GPU warm-up, once the context exists), until `stop` is set;
// errors are left to the launches, which make the same calls.
void preload_star_kernels(const std::atomic<bool>& stop);
// The filter passes of one fact kernel (kernel_params.h FilterPassJob; filter_passes.cu).
void launch_filter_passes(const FilterPassJob& job, cudaStream_t stream);
// in: int32 codes (-1 = filtered out); out: n entries of `width` (1 or 2) bytes,
// code + 1 (0 = filtered out). The caller checks that every code fits.
void launch_narrow_lookup(const int32_t* in, uint64_t n, void* out, int width, cudaStream_t stream);

// Keeps the groups with a non-zero count whose accumulators satisfy `keep` (HAVING's
// terms, group_keep.h; none: every group with rows): gids[i], ascending, and `fields`
// accumulator arrays (count first) gathered into out[f * capacity + i]; *n = groups
// kept. `scratch`: compact_scratch_bytes(groups) of device memory. Returns the
// launches' error, if any.
uint64_t compact_scratch_bytes(uint64_t groups);
cudaError_t launch_compact(const unsigned long long* const* fields, int nfields, uint64_t groups, uint64_t capacity,
                           const DevGroupKeep& keep, unsigned long long* out, unsigned long long* gids,
                           unsigned long long* n, void* scratch, cudaStream_t stream);

// p[0, n) = value.
// out[i] = the SQL stored value of row i of column c (order statistics' keys), as
// int32 (bytes = 4: the caller proved every value fits) or int64 (bytes = 8).
void launch_order_keys(const DevColumn& c, uint64_t n, void* out, int bytes, cudaStream_t stream);
void launch_fill(unsigned long long* p, uint64_t n, unsigned long long value, cudaStream_t stream);

// Calibration: reads `bytes` of device memory once per call (a reduction).
void launch_read_bandwidth(const void* data, uint64_t bytes, unsigned long long* sink, cudaStream_t stream);

}  // namespace raydb::exec::cuda
