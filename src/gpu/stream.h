#pragma once
// An owned non-blocking CUDA stream (it does not synchronize with the legacy default
// stream, so one query's work does not wait for unrelated launches).
#include "gpu/cuda_check.h"

namespace raydb::gpu {

class Stream {
 public:
  explicit Stream(const CudaErrorStyle& errors = kBackendErrors);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }  // passes straight to CUDA calls and launches

 private:
  cudaStream_t s_ = nullptr;
};

}  // namespace raydb::gpu
