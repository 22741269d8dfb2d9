// Without the CUDA backend: the GPU RT scan index does not exist; say so.
#include "access/rt_scan/gpu_scan_index.h"
#include "common/error.h"

namespace raydb::access::rt_scan {

bool gpu_scan_available(std::string* why) {
  if (why) *why = "raydb was built without CUDA";
  return false;
}

std::shared_ptr<uint64_t> make_device_words(uint64_t) {
  fail(ErrorKind::kNotImplemented, "GPU RT scan: raydb was built without CUDA");
}

std::unique_ptr<GpuScanIndex> make_gpu_scan_index(std::span<const ScanColumn>, const RtScanOptions&, rt::Tracer*) {
  fail(ErrorKind::kNotImplemented, "GPU RT scan: raydb was built without CUDA");
}

}  // namespace raydb::access::rt_scan
