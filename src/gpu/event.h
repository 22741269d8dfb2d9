#pragma once
// An owned CUDA event, for device-side timing of work on a stream.
#include "gpu/cuda_check.h"

namespace raydb::gpu {

class Event {
 public:
  explicit Event(const CudaErrorStyle& errors = kBackendErrors);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }
  operator cudaEvent_t() const { return e_; }  // passes straight to CUDA calls

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace raydb::gpu
