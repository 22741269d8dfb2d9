#include "gpu/cuda_check.h"

#include <string>

namespace raydb::gpu {

const CudaErrorStyle kBackendErrors{ErrorKind::kInternal, "CUDA {what}: {error}", "CUDA {what}: out of device memory"};

void throw_cuda_error(cudaError_t e, const char* what, const CudaErrorStyle& style, double mib) {
  (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
  const bool oom = e == cudaErrorMemoryAllocation && style.out_of_memory != nullptr;
  const std::string text = fmt::format(fmt::runtime(oom ? style.out_of_memory : style.message), fmt::arg("what", what),
                                       fmt::arg("error", cudaGetErrorString(e)), fmt::arg("mib", mib));
  throw Error(oom ? ErrorKind::kOutOfMemory : style.kind, text);
}

void check_cuda(cudaError_t e, const char* what, const CudaErrorStyle& style) {
  if (e != cudaSuccess) throw_cuda_error(e, what, style);
}

}  // namespace raydb::gpu
