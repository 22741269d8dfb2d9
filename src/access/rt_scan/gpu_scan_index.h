#pragma once
// The GPU-resident RT scan index behind a CUDA-free header (like access/gpu/
// gpu_indexes.h): ranks, sieving bin codes, rank -> row permutations and the narrowed
// column values live in device memory, encoded on the GPU (CUB radix sort); methods
// kRt (OptiX refine; needs an OptiX tracer), kGpuScan (fused CUDA scan) and kGpuSieve
// (sieving + CUDA-core refine). Built with the CUDA backend; otherwise (and without a
// device) gpu_scan_available() says why and the factory throws.
#include "access/rt_scan/scan_index.h"

namespace raydb::access::rt_scan {

class GpuScanIndex : public ScanIndex {
 public:
  // The result into device memory: out_words holds (rows + 63) / 64 words; bits past
  // the last row are 0. Returns with the result complete.
  virtual void evaluate_device(const ScanExpr& e, ScanMethod method, uint64_t* out_words,
                               ScanQueryStats* stats = nullptr) const = 0;
};

bool gpu_scan_available(std::string* why);
// Device memory for `words` result words (what evaluate_device writes into), on plain
// cudaMalloc; freed when the last handle goes. For benchmarks and tests.
std::shared_ptr<uint64_t> make_device_words(uint64_t words);
// optix: a GPU tracer (make_optix_tracer) that outlives the index, or null (no kRt).
// Unlike the host index it copies the columns: their spans may go once it returns.
// Up to 2^31 - 1 rows (CUB's sort size).
std::unique_ptr<GpuScanIndex> make_gpu_scan_index(std::span<const ScanColumn> columns, const RtScanOptions& options,
                                                  rt::Tracer* optix);

}  // namespace raydb::access::rt_scan
