#include "access/gpu/gpu_indexes.h"

#include <cuda_runtime.h>

#include "access/gpu/gpu_bucket_rt_index.h"
#include "access/gpu/gpu_hash_index.h"
#include "access/gpu/gpu_sorted_array_index.h"

namespace raydb::access {

bool gpu_indexes_available(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    if (why) *why = e == cudaSuccess ? "no CUDA device" : std::string("no CUDA device (") + cudaGetErrorString(e) + ")";
    return false;
  }
  return true;
}

namespace {
void require_device() {
  std::string why;
  if (!gpu_indexes_available(&why)) fail(ErrorKind::kExecution, "GPU index: {}", why);
}
}  // namespace

std::unique_ptr<KeyIndex> make_gpu_sorted_array(std::span<const uint64_t> keys, std::span<const int64_t> values,
                                                const GpuIndexOptions& o) {
  require_device();
  return std::make_unique<gpu::GpuSortedArrayIndex>(keys, values, o.sorted_probes, o.memory);
}
std::unique_ptr<KeyIndex> make_gpu_hash(std::span<const uint64_t> keys, std::span<const int64_t> values,
                                        const GpuIndexOptions& o) {
  require_device();
  return std::make_unique<gpu::GpuHashIndex>(keys, values, o.sorted_probes, o.memory);
}
std::unique_ptr<KeyIndex> make_gpu_rt(rt::Tracer& tracer, std::span<const uint64_t> keys,
                                      std::span<const int64_t> values, const GpuIndexOptions& o) {
  require_device();
  return std::make_unique<gpu::GpuBucketRtIndex>(tracer, keys, values, o.bucket_size, o.sorted_probes, o.memory);
}

}  // namespace raydb::access
