#include "gpu/stream.h"

namespace raydb::gpu {

Stream::Stream(const CudaErrorStyle& errors) {
  check_cuda(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate", errors);
}

Stream::~Stream() {
  if (s_) cudaStreamDestroy(s_);
}

}  // namespace raydb::gpu
