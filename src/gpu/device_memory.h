#pragma once
// Where device buffers take their memory from. The accounted pool (memory_pool.h) is
// what query execution and the indexes SQL uses draw on; CudaMallocMemory is plain,
// unaccounted cudaMalloc for tools that measure an access method alone (raydb bench
// index, calibration) and must not hold pooled memory between runs.
#include <cstdint>

#include "gpu/cuda_check.h"

namespace raydb::gpu {

class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // Throws Error (kOutOfMemory when memory ran out); `what` names the user.
  virtual void* allocate(uint64_t bytes, const char* what) = 0;
  // `bytes` as allocated.
  virtual void release(void* p, uint64_t bytes) = 0;
};

class CudaMallocMemory final : public DeviceMemory {
 public:
  // `failure` words a failed cudaMalloc ({what} is "cudaMalloc", {mib} the size).
  explicit constexpr CudaMallocMemory(const CudaErrorStyle& failure) : failure_(failure) {}
  void* allocate(uint64_t bytes, const char* what) override;
  void release(void* p, uint64_t bytes) override;

 private:
  const CudaErrorStyle& failure_;
};

}  // namespace raydb::gpu
