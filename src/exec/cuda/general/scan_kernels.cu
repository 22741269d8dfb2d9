// Kernels of a table scan's one filter pass (scan_kernels.h).
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "exec/cuda/general/program_interpreter.cuh"
#include "exec/cuda/general/scan_kernels.h"
#include "exec/cuda/general/scan_terms.h"
#include "gpu/device_buffer.h"
#include "gpu/launch.cuh"

namespace raydb::exec::cuda::general {

namespace {

struct RowAtPosition {
  ScanRows r;
  __device__ uint32_t operator()(uint32_t i) const { return scan_row(r, i); }
};

// Conjunct k runs only where 0..k-1 were TRUE; a NULL or FALSE one drops the row.
__device__ __forceinline__ void scan_filter_row(const DevProgram* progs, int np, const ScanRows& rows, uint64_t i,
                                                uint8_t* keep, DevError* err) {
  const ScannedRow row{scan_row(rows, i)};
  for (int k = 0; k < np; k++) {
    i128 v = 0;
    bool nl = true;
    if (!run_program(progs[k], row, (uint64_t(k) << 32) | i, v, nl, err) || nl || v == 0) {
      keep[i] = 0;
      return;
    }
  }
  keep[i] = 1;
}

__global__ void scan_filter_kernel(const DevProgram* progs, int np, ScanRows rows, uint64_t n, uint8_t* keep,
                                   DevError* err) {
  GRID_LOOP(i, n) scan_filter_row(progs, np, rows, i, keep, err);
}

// A bound scan term (scan_terms.h) at one row; no term can raise.
__device__ __forceinline__ bool term_holds(const ScanTerm& t, uint32_t row) {
  const int64_t a = column_value(t.a, row);
  switch (t.kind) {
    case kTermRange: return (a >= t.lo && a <= t.hi) != (t.negate != 0);
    case kTermColumns: {
      const int64_t b = column_value(t.b, row);
      return compare(t.sub, i128(a) * t.fa, i128(b) * t.fb);
    }
    case kTermBitmap:
      return bitmap_set_contains(t.set.values, t.set.size, t.set.base, a) ? t.keep_found != 0 : t.keep_absent != 0;
    default: return sorted_set_contains(t.set, a) ? t.keep_found != 0 : t.keep_absent != 0;
  }
}

// Every lane reads the same term (a broadcast load); a warp stops once all its lanes failed.
__global__ void scan_terms_kernel(const ScanTerm* terms, int nt, ScanRows rows, uint64_t n, uint8_t* keep) {
  GRID_LOOP(i, n) {
    const uint32_t row = scan_row(rows, i);
    bool ok = true;
    for (int t = 0; t < nt && ok; t++) ok = term_holds(terms[t], row);
    keep[i] = ok ? 1 : 0;
  }
}

// The error report pass: one position alone.
__global__ void scan_filter_one_kernel(const DevProgram* progs, int np, ScanRows rows, uint64_t i, uint8_t* keep,
                                       DevError* err) {
  scan_filter_row(progs, np, rows, i, keep, err);
}

}  // namespace

void launch_scan_filter(const DevProgram* progs, int np, const ScanRows& rows, uint64_t n, uint8_t* keep, DevError* err,
                        cudaStream_t s, uint64_t only) {
  if (only != ~0ull) {
    if (only < n) scan_filter_one_kernel<<<1, 1, 0, s>>>(progs, np, rows, only, keep, err);
    return;
  }
  if (n) scan_filter_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(progs, np, rows, n, keep, err);
}

void launch_scan_terms(const ScanTerm* terms, int nt, const ScanRows& rows, uint64_t n, uint8_t* keep, cudaStream_t s) {
  if (n) scan_terms_kernel<<<gpu::grid_blocks(n), gpu::kThreads, 0, s>>>(terms, nt, rows, n, keep);
}

uint64_t select_scan_rows(const ScanRows& rows, const uint8_t* keep, uint64_t n, uint32_t* out, cudaStream_t s) {
  if (n == 0) return 0;
  gpu::DeviceBuffer count(8, "selection count");
  // The positions mapped to their rows as CUB reads them: only kept rows are written.
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<uint32_t>(0), RowAtPosition{rows});
  size_t bytes = 0;
  gpu::check_cuda(cub::DeviceSelect::Flagged(nullptr, bytes, in, keep, out, count.get<int>(), int(n), s),
                  "cub (size query)");
  gpu::DeviceBuffer temp(std::max<size_t>(bytes, 16), "selection scratch");
  gpu::check_cuda(cub::DeviceSelect::Flagged(temp.get(), bytes, in, keep, out, count.get<int>(), int(n), s), "cub");
  int m = 0;
  gpu::check_cuda(cudaMemcpyAsync(&m, count.get(), sizeof(m), cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "count");
  return uint64_t(m);
}

}  // namespace raydb::exec::cuda::general
