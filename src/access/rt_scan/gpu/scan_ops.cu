// Device work of the GPU RT scan index (see scan_ops.h). CUB for the selections and
// the radix sort; one small kernel per step. Bit vectors are written 32 bits at a
// time from warp ballots (a 64-bit word is two little-endian halves), so each row is
// read by one thread and every store is coalesced.
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <algorithm>
#include <cstdlib>
#include <string>

#include "access/rt_scan/gpu/scan_ops.h"
#include "access/rt_scan/tie_order.h"
#include "common/error.h"
#include "gpu/event.h"
#include "gpu/launch.cuh"
#include "gpu/staged_copy.h"
#include "gpu/stream_scratch.h"

namespace raydb::access::rt_scan::gpu {

namespace mp = rt::mapping;

void check(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaErrorMemoryAllocation)
    throw Error(ErrorKind::kOutOfMemory, std::string("GPU RT scan: out of GPU memory in ") + what);
  if (e != cudaSuccess) throw Error(ErrorKind::kExecution, std::string("GPU RT scan: ") + what + ": " + cudaGetErrorString(e));
}

void sync(const char* what) {
  check(what);
  if (cudaStreamSynchronize(0) != cudaSuccess) check(what);
}

namespace {

// GPU time of the launches between construction and ms() (CUDA events on the legacy
// stream), for ScanQueryStats::device_ms.
class KernelTimer {
 public:
  KernelTimer() { cudaEventRecord(start_, 0); }
  double ms() {
    cudaEventRecord(stop_, 0);
    cudaEventSynchronize(stop_);
    float t = 0;
    cudaEventElapsedTime(&t, start_, stop_);
    return t;
  }

 private:
  raydb::gpu::Event start_, stop_;
};

using raydb::gpu::kThreads;
// One thread per item (the kernels test i < n).
unsigned grid(uint64_t n) { return raydb::gpu::item_blocks(n); }

// Scratch in stream order, failing as "GPU RT scan: out of GPU memory ...".
struct Temp : raydb::gpu::StreamScratch {
  explicit Temp(size_t bytes) : StreamScratch(bytes, "GPU RT scan") {}
};

__device__ bool is_null(const uint64_t* nulls, uint32_t i) { return nulls != nullptr && ((nulls[i >> 6] >> (i & 63)) & 1); }

struct NullIs {
  const uint64_t* nulls;
  bool want;
  __device__ bool operator()(uint32_t i) const { return is_null(nulls, i) == want; }
};

struct IsHead {
  const uint64_t* keys;
  __device__ bool operator()(uint32_t i) const { return i == 0 || keys[i] != keys[i - 1]; }
};

// Rows of `want` nullness in row order; returns how many.
uint32_t select_rows(const uint64_t* nulls, uint32_t n, bool want, uint32_t* out) {
  thrust::counting_iterator<uint32_t> it(0);
  Temp count(sizeof(int));
  size_t bytes = 0;
  cub::DeviceSelect::If(nullptr, bytes, it, out, count.as<int>(), static_cast<int>(n), NullIs{nulls, want});
  Temp tmp(bytes);
  cub::DeviceSelect::If(tmp.as<void>(), bytes, it, out, count.as<int>(), static_cast<int>(n), NullIs{nulls, want});
  int c = 0;
  cudaMemcpy(&c, count.as<int>(), sizeof(int), cudaMemcpyDeviceToHost);
  sync("select rows");
  return static_cast<uint32_t>(c);
}

__global__ void key_kernel(const int64_t* values, const uint32_t* rows, uint32_t n, uint64_t* keys) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) keys[i] = static_cast<uint64_t>(values[rows[i]]) ^ (uint64_t{1} << 63);  // order-preserving
}

__global__ void tie_kernel(const uint32_t* rows, uint32_t n, uint32_t column, uint32_t* ties) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) ties[i] = tie_order(rows[i], column);
}

// Puts rows[0, n) in tie order (tie_order.h), so the stable sort by value that follows
// orders each value's rows as the host encoding does.
void order_ties(uint32_t* rows, uint32_t n, uint32_t column) {
  Temp ties(n * sizeof(uint32_t)), sorted_ties(n * sizeof(uint32_t)), out(n * sizeof(uint32_t));
  tie_kernel<<<grid(n), kThreads>>>(rows, n, column, ties.as<uint32_t>());
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, ties.as<uint32_t>(), sorted_ties.as<uint32_t>(), rows,
                                  out.as<uint32_t>(), static_cast<int>(n));
  Temp tmp(bytes);
  cub::DeviceRadixSort::SortPairs(tmp.as<void>(), bytes, ties.as<uint32_t>(), sorted_ties.as<uint32_t>(), rows,
                                  out.as<uint32_t>(), static_cast<int>(n));
  cudaMemcpy(rows, out.as<uint32_t>(), n * sizeof(uint32_t), cudaMemcpyDeviceToDevice);
  check("tie order");
}

__global__ void scatter_ranks(const uint32_t* sorted_rows, uint32_t count, uint32_t offset, uint32_t* ranks,
                              uint32_t* rows_by_rank) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  ranks[sorted_rows[i]] = offset + static_cast<uint32_t>(i);
  if (rows_by_rank != nullptr) rows_by_rank[offset + i] = sorted_rows[i];
}

__global__ void head_values(const uint64_t* keys, const uint32_t* first, uint32_t d, int64_t* out) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < d) out[i] = static_cast<int64_t>(keys[first[i]] ^ (uint64_t{1} << 63));
}

}  // namespace

uint32_t encode_column(const int64_t* values, const uint64_t* nulls, uint32_t n, uint32_t column, uint32_t* ranks,
                       uint32_t* rows_by_rank, FillVector<int64_t>& host_values, FillVector<uint32_t>& host_first) {
  host_values.clear();
  host_first.clear();
  Temp valid_rows(n * sizeof(uint32_t) + 4), null_rows(n * sizeof(uint32_t) + 4);
  const uint32_t valid = select_rows(nulls, n, false, valid_rows.as<uint32_t>());
  const uint32_t nn = nulls == nullptr ? 0 : select_rows(nulls, n, true, null_rows.as<uint32_t>());
  if (nn > 0) scatter_ranks<<<grid(nn), kThreads>>>(null_rows.as<uint32_t>(), nn, valid, ranks, rows_by_rank);
  if (valid > 0) {
    Temp keys(valid * sizeof(uint64_t)), sorted(valid * sizeof(uint64_t)), rows(valid * sizeof(uint32_t));
    order_ties(valid_rows.as<uint32_t>(), valid, column);
    key_kernel<<<grid(valid), kThreads>>>(values, valid_rows.as<uint32_t>(), valid, keys.as<uint64_t>());
    size_t bytes = 0;  // stable: ties keep tie order
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.as<uint64_t>(), sorted.as<uint64_t>(),
                                    valid_rows.as<uint32_t>(), rows.as<uint32_t>(), static_cast<int>(valid));
    {
      Temp tmp(bytes);
      cub::DeviceRadixSort::SortPairs(tmp.as<void>(), bytes, keys.as<uint64_t>(), sorted.as<uint64_t>(),
                                      valid_rows.as<uint32_t>(), rows.as<uint32_t>(), static_cast<int>(valid));
    }
    scatter_ranks<<<grid(valid), kThreads>>>(rows.as<uint32_t>(), valid, 0, ranks, rows_by_rank);
    // Mapping table: the first rank of every run of equal keys, and its value.
    Temp first(valid * sizeof(uint32_t)), count(sizeof(int));
    thrust::counting_iterator<uint32_t> it(0);
    IsHead head{sorted.as<uint64_t>()};
    bytes = 0;
    cub::DeviceSelect::If(nullptr, bytes, it, first.as<uint32_t>(), count.as<int>(), static_cast<int>(valid), head);
    {
      Temp tmp(bytes);
      cub::DeviceSelect::If(tmp.as<void>(), bytes, it, first.as<uint32_t>(), count.as<int>(), static_cast<int>(valid),
                            head);
    }
    int d = 0;
    cudaMemcpy(&d, count.as<int>(), sizeof(int), cudaMemcpyDeviceToHost);
    sync("encode");
    Temp vals(static_cast<size_t>(d) * sizeof(int64_t));
    head_values<<<grid(d), kThreads>>>(sorted.as<uint64_t>(), first.as<uint32_t>(), d, vals.as<int64_t>());
    // Into unwritten host memory, staged and multi-threaded: for 10^8 distinct values
    // (800 MB) zeroing the vector and a pageable copy cost ~0.3 s per column.
    host_values.resize(d);
    raydb::gpu::copy_to_host_staged(host_values.data(), vals.as<int64_t>(), d * sizeof(int64_t));
    if (static_cast<uint32_t>(d) != valid) {  // else every value is distinct: first is the identity
      host_first.resize(d);
      raydb::gpu::copy_to_host_staged(host_first.data(), first.as<uint32_t>(), d * sizeof(uint32_t));
    }
  }
  if (host_values.size() != valid) host_first.push_back(valid);
  sync("encode");
  return valid;
}

namespace {

__global__ void sieve_kernel(const uint32_t* ranks, uint32_t n, const uint32_t* borders, uint32_t count,
                             uint32_t* f32, uint64_t half_words) {
  const uint64_t r = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  const uint32_t rank = r < n ? ranks[r] : 0xFFFFFFFFu;  // past the end: below no border
  for (uint32_t i = 0; i < count; ++i) {
    const unsigned b = __ballot_sync(0xFFFFFFFFu, rank < borders[i]);
    if ((threadIdx.x & 31) == 0 && r / 32 < half_words) f32[i * half_words + r / 32] = b;
  }
}

}  // namespace

namespace {

template <typename T>
__global__ void bin_codes_kernel(const uint32_t* ranks, uint32_t n, const uint32_t* borders, uint32_t m, T* codes) {
  const uint64_t r = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (r >= n) return;
  const uint32_t rank = ranks[r];
  uint32_t lo = 0, hi = m;  // the number of borders <= rank (borders ascending)
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (borders[mid] <= rank)
      lo = mid + 1;
    else
      hi = mid;
  }
  codes[r] = static_cast<T>(lo);
}

}  // namespace

void build_bin_codes(const uint32_t* ranks, uint32_t n, const uint32_t* borders, uint32_t m, int width, void* codes) {
  if (n == 0) return;
  if (width == 1)
    bin_codes_kernel<<<grid(n), kThreads>>>(ranks, n, borders, m, static_cast<uint8_t*>(codes));
  else if (width == 2)
    bin_codes_kernel<<<grid(n), kThreads>>>(ranks, n, borders, m, static_cast<uint16_t*>(codes));
  else
    bin_codes_kernel<<<grid(n), kThreads>>>(ranks, n, borders, m, static_cast<uint32_t*>(codes));
  sync("sieve codes");
}

void build_sieve(const uint32_t* ranks, uint32_t n, const uint32_t* borders, uint32_t count, uint64_t* f) {
  if (count == 0 || n == 0) return;
  const uint64_t words = (n + 63) / 64;
  sieve_kernel<<<grid(words * 64), kThreads>>>(ranks, n, borders, count, reinterpret_cast<uint32_t*>(f), words * 2);
  sync("sieve vectors");
}

namespace {

template <typename T>
__global__ void narrow_kernel(const int64_t* values, uint32_t n, uint64_t base, T* out) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<T>(static_cast<uint64_t>(values[i]) - base);
}

__device__ uint64_t tail_of(uint64_t rows, uint64_t w) {
  const uint64_t left = rows - w * 64;
  return left >= 64 ? ~uint64_t{0} : (uint64_t{1} << left) - 1;
}

__global__ void fill_kernel(uint64_t* w, uint64_t words, uint64_t rows, bool ones) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < words) w[i] = ones ? tail_of(rows, i) : 0;
}

__global__ void combine_kernel(uint64_t* a, const uint64_t* b, uint64_t words, bool is_or) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < words) a[i] = is_or ? (a[i] | b[i]) : (a[i] & b[i]);
}

struct SieveArgs {
  SieveTermArgs t[3];
  int n;
  uint64_t rows;
};

__device__ __forceinline__ uint32_t code_at(const SieveTermArgs& t, uint64_t r) {
  if (t.width == 1) return static_cast<const uint8_t*>(t.codes)[r];
  if (t.width == 2) return static_cast<const uint16_t*>(t.codes)[r];
  return static_cast<const uint32_t*>(t.codes)[r];
}

// Whether `code` lies in one of t's spans. Inline spans are read at static indices
// (unrolled), so the kernel parameters stay in the constant bank: indexing them with a
// loop variable made every thread copy the parameter block to local memory (the
// kernel ran at a fifth of the bandwidth on an H100).
__device__ __forceinline__ bool in_spans(const SieveTermArgs& t, uint32_t code) {
  bool m = false;
  if (t.n_spans <= kInlineSieveSpans) {
#pragma unroll
    for (int s = 0; s < kInlineSieveSpans; ++s)
      m |= (static_cast<uint32_t>(s) < t.n_spans) & (t.inline_spans[2 * s] <= code) & (code < t.inline_spans[2 * s + 1]);
    return m;
  }
  for (uint32_t s = 0; s < t.n_spans && !m; ++s) m = t.spans[2 * s] <= code && code < t.spans[2 * s + 1];
  return m;
}

// One thread per row (coalesced code loads); a warp's ballot is one 32-bit half of
// an output word. Rows past the end match nothing. Terms unrolled (static indices).
__global__ void sieve_and_kernel(SieveArgs a, uint32_t* out32, uint64_t halves) {
  const uint64_t r = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  bool keep = r < a.rows;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    if (k < a.n && keep) {
      const SieveTermArgs& t = a.t[k];
      // No interval: nothing (and no codes when the column has no non-NULL row).
      keep = t.n_spans > 0 && in_spans(t, code_at(t, r));
    }
  }
  const unsigned b = __ballot_sync(0xFFFFFFFFu, keep);
  if ((threadIdx.x & 31) == 0 && r / 32 < halves) out32[r / 32] = b;
}

// 1-byte codes (K <= 255, the default), 32 rows per thread: two 16-byte loads per
// term, spans tested four codes at a time with byte-wise SIMD compares, the byte
// masks packed into bits by a multiply. The per-row kernel above spent ~100
// instructions per row and ran instruction-bound (0.7 ms for 10^8 rows x 3 columns on
// an H100); this one stays at the memory's speed. `codes` are readable up to
// halves * 32 bytes (build_bin_codes pads them).
__device__ __forceinline__ uint32_t pack_byte_mask(uint32_t m) {
  // Bytes 0xFF/0x00 -> 4 bits: bit 7 of byte b to bit 28 + b (distinct products, no
  // carries), then down to bits 0..3.
  return (((m >> 7) & 0x01010101u) * 0x10204080u) >> 28;
}

__device__ __forceinline__ uint32_t span_mask(uint32_t w, uint32_t lo, uint32_t hi) {
  return __vcmpgeu4(w, lo * 0x01010101u) & __vcmpltu4(w, hi * 0x01010101u);
}

__global__ void sieve_and_bytes_kernel(SieveArgs a, uint32_t* out32, uint64_t halves) {
  const uint64_t h = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (h >= halves) return;
  const uint64_t row0 = h * 32;
  uint32_t acc = row0 >= a.rows ? 0u : a.rows - row0 >= 32 ? 0xFFFFFFFFu : (1u << (a.rows - row0)) - 1;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    if (k < a.n && acc != 0) {
      const SieveTermArgs& t = a.t[k];
      if (t.n_spans == 0) {
        acc = 0;
      } else {
        const uint4* p = reinterpret_cast<const uint4*>(static_cast<const uint8_t*>(t.codes) + row0);
        const uint4 q0 = p[0], q1 = p[1];
        const uint32_t w[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
        uint32_t m[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        if (t.n_spans <= kInlineSieveSpans) {
#pragma unroll
          for (int s = 0; s < kInlineSieveSpans; ++s)
            if (static_cast<uint32_t>(s) < t.n_spans) {
              const uint32_t lo = t.inline_spans[2 * s], hi = t.inline_spans[2 * s + 1];
#pragma unroll
              for (int i = 0; i < 8; ++i) m[i] |= span_mask(w[i], lo, hi);
            }
        } else {
          for (uint32_t s = 0; s < t.n_spans; ++s) {
            const uint32_t lo = t.spans[2 * s], hi = t.spans[2 * s + 1];
#pragma unroll
            for (int i = 0; i < 8; ++i) m[i] |= span_mask(w[i], lo, hi);
          }
        }
        uint32_t bits = 0;
#pragma unroll
        for (int i = 0; i < 8; ++i) bits |= pack_byte_mask(m[i]) << (4 * i);
        acc &= bits;
      }
    }
  }
  out32[h] = acc;
}

__global__ void refine_kernel(CudaRefineArgs a) {
  const uint64_t j = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (j >= a.total) return;
  uint32_t lo = 0, hi = a.count;  // range k with residual_first[k] <= j < residual_first[k + 1]
  while (hi - lo > 1) {
    const uint32_t m = lo + (hi - lo) / 2;
    if (a.residual_first[m] <= j)
      lo = m;
    else
      hi = m;
  }
  const uint32_t rank = a.residual[lo].lo + static_cast<uint32_t>(j - a.residual_first[lo]);
  const uint32_t row = a.rows_by_rank[a.residual_dim[lo]][rank];
  mp::write_exact_bit(a.bits, row, a.check.matches(a.cubes, row));
}

// The fused scan reads every column once at full bandwidth: terms as kernel
// parameters (constant cache), kScanItems rows per thread in a block-striped layout
// (each load coalesced, kScanItems loads in flight per thread), and a term is loaded
// only for rows still matching, so a selective first term saves the later columns'
// sectors.
constexpr int kScanTermsPerLaunch = 6;
constexpr int kScanItems = 4;
struct ScanParams {
  ScanTermArgs t[kScanTermsPerLaunch];
  int n;
  bool and_into;  // AND into out (a later launch of a long conjunction)
};

// Inline ranges by constant index (a pointer into the parameters would be a generic
// load per row: the general kernel ran at a fifth of the bandwidth with one).
__device__ bool in_ranges(const ScanTermArgs& t, uint64_t v) {
  bool in = false;
  if (t.n_ranges <= kInlineScanRanges) {
#pragma unroll
    for (int i = 0; i < kInlineScanRanges; ++i)
      in |= uint32_t(i) < t.n_ranges && v - t.inline_ranges[2 * i] <= t.inline_ranges[2 * i + 1] - t.inline_ranges[2 * i];
    return in;
  }
  for (uint32_t i = 0; i < t.n_ranges; ++i) in |= v - t.ranges[2 * i] <= t.ranges[2 * i + 1] - t.ranges[2 * i];
  return in;
}

__global__ void scan_kernel(const ScanParams p, uint64_t rows, uint32_t* out32) {
  const uint64_t base = uint64_t(blockIdx.x) * blockDim.x * kScanItems + threadIdx.x;
  bool ok[kScanItems];
#pragma unroll
  for (int i = 0; i < kScanItems; ++i) ok[i] = base + uint64_t(i) * blockDim.x < rows;
  for (int k = 0; k < p.n; ++k) {
    const ScanTermArgs& t = p.t[k];
    uint64_t v[kScanItems];
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) {
      const uint64_t r = base + uint64_t(i) * blockDim.x;
      v[i] = 0;
      if (ok[i]) v[i] = t.width == 4 ? static_cast<const uint32_t*>(t.values)[r] : static_cast<const uint64_t*>(t.values)[r];
    }
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) {
      const uint64_t r = base + uint64_t(i) * blockDim.x;
      if (ok[i] && t.nulls != nullptr && ((t.nulls[r >> 6] >> (r & 63)) & 1)) ok[i] = false;
      ok[i] = ok[i] && in_ranges(t, v[i]);
    }
  }
  const uint64_t halves = (rows + 63) / 64 * 2;
#pragma unroll
  for (int i = 0; i < kScanItems; ++i) {
    const uint64_t r = base + uint64_t(i) * blockDim.x;
    const unsigned b = __ballot_sync(0xFFFFFFFFu, ok[i]);
    if ((threadIdx.x & 31) == 0 && r / 32 < halves) {
      if (p.and_into)
        out32[r / 32] &= b;
      else
        out32[r / 32] = b;
    }
  }
}

// The common case at full bandwidth: 4-byte values without NULLs, one range per term.
// Each thread reads 4 consecutive rows of a column with one 16-byte load (a warp: 512
// contiguous bytes), so far fewer load instructions keep the memory system busy; the
// 4-bit results of 8 lanes are OR-reduced into each 32-bit word of the bit vector.
// Later columns are read only by threads with a row still matching.
struct FastTerm {
  const uint4* values;  // narrowed values, padded to a multiple of 16 bytes (narrow_words)
  uint32_t lo, span;    // match: value - lo <= span (unsigned)
};
template <int kTerms>
struct FastScanParams {
  FastTerm t[kTerms];
};

template <int kTerms>
__global__ void fast_scan_kernel(const FastScanParams<kTerms> p, uint64_t rows, uint32_t* out32) {
  const uint64_t q = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;  // rows 4q .. 4q + 3
  const uint64_t first = q * 4;
  uint32_t m = first >= rows ? 0u : rows - first >= 4 ? 0xFu : (1u << (rows - first)) - 1u;
#pragma unroll
  for (int k = 0; k < kTerms; ++k) {
    if (m != 0) {
      const uint4 v = p.t[k].values[q];
      const uint32_t lo = p.t[k].lo, span = p.t[k].span;
      m &= (v.x - lo <= span ? 1u : 0u) | (v.y - lo <= span ? 2u : 0u) | (v.z - lo <= span ? 4u : 0u) |
           (v.w - lo <= span ? 8u : 0u);
    }
  }
  const unsigned lane = threadIdx.x & 31;
  uint32_t w = m << (4 * (lane & 7));
  w |= __shfl_xor_sync(0xFFFFFFFFu, w, 1);
  w |= __shfl_xor_sync(0xFFFFFFFFu, w, 2);
  w |= __shfl_xor_sync(0xFFFFFFFFu, w, 4);
  const uint64_t word = first / 32;  // lanes 0, 8, 16, 24 start a 32-row word
  const uint64_t halves = (rows + 63) / 64 * 2;
  if ((lane & 7) == 0 && word < halves) out32[word] = w;
}

// The same scan over warp tiles from a resident grid: each lane issues kTileLoads
// 16-byte loads (a warp: kTileLoads x 512 contiguous bytes) before comparing any, so
// each thread keeps four loads in flight instead of one, and the grid is sized to the
// GPU rather than one block per 1,024 rows (measured on the H100 at 10^8 rows: the
// one-load kernel ran at 1.6-1.7x the read floor).
constexpr int kTileLoads = 4;
template <int kTerms>
__global__ void __launch_bounds__(kThreads) tiled_scan_kernel(const FastScanParams<kTerms> p, uint64_t rows,
                                                             uint32_t* out32) {
  const unsigned lane = threadIdx.x & 31;
  const uint64_t warps = uint64_t(gridDim.x) * (blockDim.x / 32);
  const uint64_t quads = (rows + 63) / 64 * 16;  // 4-row groups covering every 32-bit half word
  const uint64_t halves = (rows + 63) / 64 * 2;
  for (uint64_t tile = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; tile * 32 * kTileLoads < quads;
       tile += warps) {
    const uint64_t q0 = tile * 32 * kTileLoads + lane;
    uint32_t m[kTileLoads];
#pragma unroll
    for (int u = 0; u < kTileLoads; ++u) {
      const uint64_t first = (q0 + 32u * u) * 4;
      m[u] = first >= rows ? 0u : rows - first >= 4 ? 0xFu : (1u << (rows - first)) - 1u;
    }
#pragma unroll
    for (int k = 0; k < kTerms; ++k) {
      uint4 v[kTileLoads];
#pragma unroll
      for (int u = 0; u < kTileLoads; ++u) v[u] = m[u] ? __ldg(p.t[k].values + q0 + 32u * u) : make_uint4(0, 0, 0, 0);
      const uint32_t lo = p.t[k].lo, span = p.t[k].span;
#pragma unroll
      for (int u = 0; u < kTileLoads; ++u)
        m[u] &= (v[u].x - lo <= span ? 1u : 0u) | (v[u].y - lo <= span ? 2u : 0u) |
                (v[u].z - lo <= span ? 4u : 0u) | (v[u].w - lo <= span ? 8u : 0u);
    }
#pragma unroll
    for (int u = 0; u < kTileLoads; ++u) {
      uint32_t w = m[u] << (4 * (lane & 7));
      w |= __shfl_xor_sync(0xFFFFFFFFu, w, 1);
      w |= __shfl_xor_sync(0xFFFFFFFFu, w, 2);
      w |= __shfl_xor_sync(0xFFFFFFFFu, w, 4);
      const uint64_t word = (q0 + 32u * u) * 4 / 32;  // lanes 0, 8, 16, 24 start a 32-row word
      if ((lane & 7) == 0 && word < halves) out32[word] = w;
    }
  }
}

// RAYDB_GPU_SCAN_TILES=off runs the one-load kernel (kept for benchmarks of the two).
bool tiled_scan() {
  static const bool on = [] {
    const char* e = std::getenv("RAYDB_GPU_SCAN_TILES");
    return !(e && (std::string(e) == "off" || std::string(e) == "0" || std::string(e) == "false"));
  }();
  return on;
}

// Launches the fast kernel when every term qualifies; false otherwise.
template <int kTerms>
bool launch_fast(const ScanTermArgs* terms, uint64_t rows, uint32_t* out32) {
  FastScanParams<kTerms> p{};
  for (int k = 0; k < kTerms; ++k) {
    const ScanTermArgs& t = terms[k];
    if (t.width != 4 || t.nulls != nullptr || t.n_ranges != 1) return false;
    const uint64_t lo = t.inline_ranges[0], hi = t.inline_ranges[1];
    if (hi < lo || hi > 0xFFFFFFFFull) return false;
    p.t[k] = {static_cast<const uint4*>(t.values), static_cast<uint32_t>(lo), static_cast<uint32_t>(hi - lo)};
  }
  if (tiled_scan()) {  // 8 blocks of 256 threads per SM, at most one warp tile per warp
    const uint64_t warp_tiles = ((rows + 63) / 64 * 16 + 32 * kTileLoads - 1) / (32 * kTileLoads);
    const uint64_t blocks = std::min<uint64_t>((warp_tiles + kThreads / 32 - 1) / (kThreads / 32),
                                               uint64_t(raydb::gpu::sm_count()) * 8);
    tiled_scan_kernel<kTerms><<<unsigned(std::max<uint64_t>(blocks, 1)), kThreads>>>(p, rows, out32);
    return true;
  }
  // One thread per 4 rows, covering every 32-bit half word of the result.
  const uint64_t threads = (rows + 63) / 64 * 16;
  fast_scan_kernel<kTerms><<<raydb::gpu::item_blocks(threads), kThreads>>>(p, rows, out32);
  return true;
}

bool fast_scan(const ScanTermArgs* terms, int n_terms, uint64_t rows, uint32_t* out32) {
  switch (n_terms) {
    case 1: return launch_fast<1>(terms, rows, out32);
    case 2: return launch_fast<2>(terms, rows, out32);
    case 3: return launch_fast<3>(terms, rows, out32);
    case 4: return launch_fast<4>(terms, rows, out32);
    default: return false;
  }
}

__global__ void cube_kernel(mp::ScanCubes c, rt::Aabb* boxes) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= c.cells) return;
  uint32_t cell[3];
  c.cell_of(c.cell_rows[c.cell_start[i]], cell);
  boxes[i] = mp::cell_cube(cell);
}

__global__ void cell_key_kernel(mp::ScanCubes c, uint64_t* keys, uint32_t* rows) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= c.rows) return;
  uint32_t cell[3];
  c.cell_of(static_cast<uint32_t>(i), cell);
  keys[i] = uint64_t{cell[0]} | (uint64_t{cell[1]} << 21) | (uint64_t{cell[2]} << 42);
  rows[i] = static_cast<uint32_t>(i);
}

}  // namespace

void narrow_values(const int64_t* values, uint32_t n, int64_t base, int width, void* out) {
  if (n == 0) return;
  if (width == 4)
    narrow_kernel<<<grid(n), kThreads>>>(values, n, static_cast<uint64_t>(base), static_cast<uint32_t*>(out));
  else
    narrow_kernel<<<grid(n), kThreads>>>(values, n, static_cast<uint64_t>(base), static_cast<uint64_t*>(out));
  sync("narrow values");
}

void fill_words(uint64_t* w, uint64_t words, uint64_t rows, bool ones) {
  if (words == 0) return;
  fill_kernel<<<grid(words), kThreads>>>(w, words, rows, ones);
  sync("fill");
}

void combine_words(uint64_t* a, const uint64_t* b, uint64_t words, bool is_or) {
  if (words == 0) return;
  combine_kernel<<<grid(words), kThreads>>>(a, b, words, is_or);
  sync("combine");
}

double sieve_and(const SieveTermArgs* host_terms, int n_terms, uint64_t rows, uint64_t* out) {
  if (n_terms > 3) throw Error(ErrorKind::kInternal, "GPU RT scan: more than 3 sieve terms");
  SieveArgs a{};
  for (int k = 0; k < n_terms; ++k) a.t[k] = host_terms[k];
  a.n = n_terms;
  a.rows = rows;
  const uint64_t words = (rows + 63) / 64;
  if (words == 0) return 0;
  bool bytes = true;
  for (int k = 0; k < n_terms; ++k) bytes = bytes && host_terms[k].width == 1;
  KernelTimer t;
  if (bytes) {
    sieve_and_bytes_kernel<<<grid(words * 2), kThreads>>>(a, reinterpret_cast<uint32_t*>(out), words * 2);
  } else {  // whole warps over whole words: the grid covers words * 64 threads
    sieve_and_kernel<<<grid(words * 64), kThreads>>>(a, reinterpret_cast<uint32_t*>(out), words * 2);
  }
  check("sieve");
  return t.ms();
}

double cuda_refine(const CudaRefineArgs& a) {
  if (a.total == 0) return 0;
  KernelTimer t;
  refine_kernel<<<grid(a.total), kThreads>>>(a);
  check("refine");
  return t.ms();
}

double fused_scan(const ScanTermArgs* host_terms, int n_terms, uint64_t rows, uint64_t* out) {
  const uint64_t words = (rows + 63) / 64;
  if (words == 0) return 0;
  KernelTimer t;
  if (fast_scan(host_terms, n_terms, rows, reinterpret_cast<uint32_t*>(out))) {
    check("scan");
    return t.ms();
  }
  // Rows past `rows` in the last word read nothing and ballot 0, so its tail stays 0.
  const uint64_t per_block = uint64_t(kThreads) * kScanItems;
  const unsigned blocks = unsigned((words * 64 + per_block - 1) / per_block);
  ScanParams p{};
  int k = 0;
  do {  // a conjunction of more terms than one launch takes: AND the later launches in
    p.n = std::min(kScanTermsPerLaunch, n_terms - k);
    for (int i = 0; i < p.n; ++i) p.t[i] = host_terms[k + i];
    p.and_into = k > 0;
    scan_kernel<<<blocks, kThreads>>>(p, rows, reinterpret_cast<uint32_t*>(out));
    k += p.n;
  } while (k < n_terms);
  check("scan");
  return t.ms();
}

uint32_t build_cells(const mp::ScanCubes& cubes, uint32_t* cell_rows, uint32_t* cell_start) {
  const uint32_t n = cubes.rows;
  if (n == 0) {
    cudaMemcpy(cell_start, &n, sizeof(n), cudaMemcpyHostToDevice);
    sync("cells");
    return 0;
  }
  Temp keys(n * sizeof(uint64_t)), sorted(n * sizeof(uint64_t)), rows(n * sizeof(uint32_t)), count(sizeof(int));
  cell_key_kernel<<<grid(n), kThreads>>>(cubes, keys.as<uint64_t>(), rows.as<uint32_t>());
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.as<uint64_t>(), sorted.as<uint64_t>(), rows.as<uint32_t>(),
                                  cell_rows, static_cast<int>(n), 0, 63);
  {
    Temp tmp(bytes);
    cub::DeviceRadixSort::SortPairs(tmp.as<void>(), bytes, keys.as<uint64_t>(), sorted.as<uint64_t>(),
                                    rows.as<uint32_t>(), cell_rows, static_cast<int>(n), 0, 63);
  }
  thrust::counting_iterator<uint32_t> it(0);
  IsHead head{sorted.as<uint64_t>()};
  bytes = 0;
  cub::DeviceSelect::If(nullptr, bytes, it, cell_start, count.as<int>(), static_cast<int>(n), head);
  {
    Temp tmp(bytes);
    cub::DeviceSelect::If(tmp.as<void>(), bytes, it, cell_start, count.as<int>(), static_cast<int>(n), head);
  }
  int d = 0;
  cudaMemcpy(&d, count.as<int>(), sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(cell_start + d, &n, sizeof(n), cudaMemcpyHostToDevice);
  sync("cells");
  return static_cast<uint32_t>(d);
}

void write_cubes(const mp::ScanCubes& cubes, rt::Aabb* boxes) {
  if (cubes.cells == 0) return;
  cube_kernel<<<grid(cubes.cells), kThreads>>>(cubes, boxes);
  sync("cubes");
}

}  // namespace raydb::access::rt_scan::gpu
