#pragma once
// What this build and machine offer, and the bandwidth probes behind `raydb
// calibrate` and the GPU benchmark: the API's view of the backends, so the CLI need
// not reach into exec/ or rt/.
#include <cstdint>
#include <string>
#include <vector>

namespace raydb {

struct GpuDevice {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  uint64_t total_bytes = 0, free_bytes = 0;
  int multiprocessors = 0;
  uint64_t l2_bytes = 0;
};

struct RayTracingSupport {
  bool built = false;           // the OptiX tracer was compiled in
  bool available = false;       // a CUDA device and the driver's OptiX work
  unsigned rtcore_version = 0;  // OPTIX_DEVICE_PROPERTY_RTCORE_VERSION: 0 = no RT cores
  std::string device;
  std::string reason;  // why not available
};

struct SystemInfo {
  bool cuda_built = false;
  std::vector<GpuDevice> gpus;
  std::string no_gpu_reason;  // why `gpus` is empty
  RayTracingSupport ray_tracing;
};

SystemInfo system_info();

// Streaming read bandwidth of GPU 0 and pinned host-to-device copy bandwidth (GB/s).
// Throw Error(kInvalidInput) without a CUDA device.
double measure_gpu_read_gbs();
double measure_host_to_gpu_gbs();
// Drops the columns resident on the GPU, so the next query uploads them again
// (end-to-end timings from host memory).
void drop_gpu_resident_columns();
// Drops everything cached on the GPU (resident columns, GPU indexes) and returns the
// memory pool's blocks to the device, as before process exit under a leak checker.
// Returns the device bytes still held by live objects (0 without CUDA).
uint64_t release_gpu_memory();
// Device bytes held now by resident columns and live query buffers (0 without CUDA).
uint64_t gpu_memory_in_use();

// Starts the GPU's driver and context on a background thread, so a query that goes to
// the GPU later finds them made (raydb query and shell, setting device_warmup); does
// nothing without CUDA or when started already. Errors are not reported here: the
// query's first device call reports them as before. gpu_warmup_running: started and
// not finished (see settle_gpu_warmup for a process that exits meanwhile);
// gpu_warmup_ms: how long it took, -1 unless it finished.
void start_gpu_warmup();
bool gpu_warmup_running();
double gpu_warmup_ms();
// Before the process exits: stops the warm-up's kernel loading at its next kernel and
// waits for it; false while the driver or context is still being made (that cannot be
// cut short, and exit's CUDA teardown must not run beside it).
bool settle_gpu_warmup();

}  // namespace raydb
