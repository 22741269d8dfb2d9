#include "gpu/event.h"

namespace raydb::gpu {

Event::Event(const CudaErrorStyle& errors) { check_cuda(cudaEventCreate(&e_), "cudaEventCreate", errors); }

Event::~Event() {
  if (e_) cudaEventDestroy(e_);
}

}  // namespace raydb::gpu
