#pragma once
// Device work of the GPU RT scan index (scan_ops.cu, nvcc, C++17): the sort-based
// rank encoding, sieving vectors, the sieving approximation, the CUDA-core refine
// (BinDex-CUDA), the fused scan, bit-vector algebra and the cubes of the RT
// structures. Plain pointers (device memory unless named host_*), so the C++20 index
// calls it without seeing device code. Everything runs on the legacy default stream
// and returns with its results complete; CUDA failures throw raydb::Error. The
// per-query steps (sieve_and, cuda_refine, fused_scan) return their GPU time in ms.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/default_init_allocator.h"
#include "rt/mapping/scan_refine.h"

namespace raydb::access::rt_scan::gpu {

// Rank encoding of n values (nulls: bitmap, bit set = NULL; may be null): ties in
// tie_order(row, column), NULL rows last in row order, as the host encoding. Writes each
// row's rank and (rows_by_rank non-null) the row of each rank; the mapping table
// (distinct values ascending, first rank of each; host_first stays empty when every
// value is distinct, MappingTable::dense) comes back to the host. Returns the number of
// non-NULL rows.
uint32_t encode_column(const int64_t* values, const uint64_t* nulls, uint32_t n, uint32_t column, uint32_t* ranks,
                       uint32_t* rows_by_rank, FillVector<int64_t>& host_values, FillVector<uint32_t>& host_first);

// F_i (i = 1..count) at f + (i - 1) * words: bit r set when ranks[r] < borders[i - 1]
// (borders: `count` values in device memory).
void build_sieve(const uint32_t* ranks, uint32_t n, const uint32_t* borders, uint32_t count, uint64_t* f);

// The K sieving vectors of a column as one bin code per row (RTScan's F_1..F_{m-1}
// hold the same information: F_j has bit r set exactly when code[r] < j): code[r] =
// how many of borders X_1..X_m (device memory, `m` values, X_m = the non-NULL count)
// are <= ranks[r], so a non-NULL row's code is its bin and a NULL row's is m. `width`
// bytes per code: 1 when m < 2^8, 2 when m < 2^16, else 4 (code_width). A span (i, j),
// F_j & ~F_i, is then i <= code < j, read at width bits per row instead of 2 bits per
// span: m - 1 vectors of one bit per row become one code of 8 bits for m <= 255.
inline int code_width(uint32_t m) { return m < (1u << 8) ? 1 : m < (1u << 16) ? 2 : 4; }
void build_bin_codes(const uint32_t* ranks, uint32_t n, const uint32_t* borders, uint32_t m, int width, void* codes);

// Offsets of a column from its minimum, in 4 bytes per row when they fit (width 4), else 8.
// `out` must hold narrow_words(n, width) words: the fused scan reads 16 bytes at a time.
inline uint64_t narrow_words(uint64_t n, int width) { return (n * width + 15) / 16 * 2 + 2; }
void narrow_values(const int64_t* values, uint32_t n, int64_t base, int width, void* out);

void fill_words(uint64_t* w, uint64_t words, uint64_t rows, bool ones);
void combine_words(uint64_t* a, const uint64_t* b, uint64_t words, bool is_or);

constexpr int kInlineSieveSpans = 4;
struct SieveTermArgs {
  const void* codes;      // the column's bin codes (build_bin_codes)
  int width;              // bytes per code
  uint32_t m;             // bins: a span ending at m takes every non-NULL row
  const uint32_t* spans;  // pairs (i, j): i <= code < j, in device memory (n_spans > kInlineSieveSpans), else null
  uint32_t n_spans;
  uint32_t inline_spans[2 * kInlineSieveSpans];  // the pairs when n_spans <= kInlineSieveSpans (no upload)
};
// out = AND over terms of OR over spans (at most 3 terms).
double sieve_and(const SieveTermArgs* host_terms, int n_terms, uint64_t rows, uint64_t* out);

// BinDex-CUDA refine: every rank of the residual ranges of each constrained dim (dim
// dims_of_range[k] for range k, rows via rows_by_rank[dim]) gets its row's exact bit.
struct CudaRefineArgs {
  rt::mapping::ScanCubes cubes;  // the group's ranks
  rt::mapping::ScanCheck check;  // device ranges
  const uint32_t* rows_by_rank[3];
  const rt::mapping::RankRange* residual;  // device
  const uint32_t* residual_dim;            // device, one per residual range
  const uint64_t* residual_first;          // device, prefix of range sizes (count + 1)
  uint32_t count;
  uint64_t total;
  uint64_t* bits;
};
double cuda_refine(const CudaRefineArgs& a);

// Fused scan: a row matches when, for every term, it is not NULL and its narrowed value
// lies in one of the term's ranges [lo, hi] (offsets from the column minimum). Terms
// and up to kInlineScanRanges ranges each travel as kernel parameters (no upload);
// longer range lists are read from device memory.
constexpr int kInlineScanRanges = 4;
struct ScanTermArgs {
  const void* values;
  int width;                     // 4 or 8
  const uint64_t* nulls;         // or null
  const uint64_t* ranges;        // pairs lo, hi in device memory (n_ranges > kInlineScanRanges), else null
  uint64_t inline_ranges[2 * kInlineScanRanges];  // pairs lo, hi (n_ranges <= kInlineScanRanges)
  uint32_t n_ranges;
};
double fused_scan(const ScanTermArgs* host_terms, int n_terms, uint64_t rows, uint64_t* out);

// A group's occupied cells: cell_rows (cubes.rows entries) gets the rows sorted by
// packed cell, cell_start (capacity rows + 1) the first position of every cell and
// rows at the end. Returns the number of cells.
uint32_t build_cells(const rt::mapping::ScanCubes& cubes, uint32_t* cell_rows, uint32_t* cell_start);
// The cube of every cell (rt::Aabb, 6 floats); cubes' cell fields set.
void write_cubes(const rt::mapping::ScanCubes& cubes, rt::Aabb* boxes);

// Throws Error with the CUDA error of the last call, if any.
void check(const char* what);
void sync(const char* what);

}  // namespace raydb::access::rt_scan::gpu
