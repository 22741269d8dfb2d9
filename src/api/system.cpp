#include "raydb/system.h"

#include "common/error.h"
#include "exec/cuda/cuda_backend.h"
#include "rt/tracer.h"

namespace raydb {

SystemInfo system_info() {
  namespace cu = exec::cuda;
  SystemInfo s;
  s.cuda_built = cu::built();
  for (const cu::DeviceInfo& d : cu::devices())
    s.gpus.push_back({d.index, d.name, d.cc_major, d.cc_minor, d.total_bytes, d.free_bytes, d.multiprocessors,
                      uint64_t(d.l2_bytes)});
  if (s.gpus.empty()) s.no_gpu_reason = cu::no_device_reason();
  const rt::OptixDeviceInfo& o = rt::optix_device_info();
  s.ray_tracing = {o.built, o.available, o.rtcore_version, o.device, o.reason};
  return s;
}

double measure_gpu_read_gbs() {
  if (exec::cuda::device_count() == 0) fail(ErrorKind::kInvalidInput, "no CUDA device: {}", exec::cuda::no_device_reason());
  return exec::cuda::measure_device_read_gbs();
}

double measure_host_to_gpu_gbs() {
  if (exec::cuda::device_count() == 0) fail(ErrorKind::kInvalidInput, "no CUDA device: {}", exec::cuda::no_device_reason());
  return exec::cuda::measure_host_to_device_gbs();
}

void drop_gpu_resident_columns() { exec::cuda::clear_column_cache(); }

uint64_t release_gpu_memory() { return exec::cuda::release_device_state(); }

uint64_t gpu_memory_in_use() { return exec::cuda::memory_stats().in_use; }

void start_gpu_warmup() { exec::cuda::start_device_warmup(); }
bool gpu_warmup_running() { return exec::cuda::device_warmup_running(); }
double gpu_warmup_ms() { return exec::cuda::device_warmup_ms(); }
bool settle_gpu_warmup() { return exec::cuda::settle_device_warmup(); }

}  // namespace raydb
