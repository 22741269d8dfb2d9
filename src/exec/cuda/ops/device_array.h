#pragma once
// Device memory of exec/cuda/ops: a plain RAII cudaMalloc buffer and the error check.
// ops/ does not use exec/cuda's pooled DeviceBuffer because that lives in the CUDA
// executor library (which ops/ must not need to build or link); when the shared GPU
// layer (src/gpu/) lands, this file is what moves onto its buffers.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/error.h"

namespace raydb::exec::cuda::ops {

inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear the error so later calls start clean
  if (e == cudaErrorMemoryAllocation) fail(ErrorKind::kOutOfMemory, "CUDA {}: out of device memory", what);
  fail(ErrorKind::kInternal, "CUDA {}: {}", what, cudaGetErrorString(e));
}

class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(uint64_t bytes, const char* what) : bytes_(bytes ? bytes : 8) { check(cudaMalloc(&p_, bytes_), what); }
  ~DeviceArray() { reset(); }
  DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr, o.bytes_ = 0; }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_, bytes_ = o.bytes_;
      o.p_ = nullptr, o.bytes_ = 0;
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  void reset() {
    if (p_) cudaFree(p_);
    p_ = nullptr, bytes_ = 0;
  }
  template <typename T = void>
  T* get() const {
    return static_cast<T*>(p_);
  }
  uint64_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace raydb::exec::cuda::ops
