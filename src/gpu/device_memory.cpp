#include "gpu/device_memory.h"

namespace raydb::gpu {

void* CudaMallocMemory::allocate(uint64_t bytes, const char* what) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) throw_cuda_error(e, "cudaMalloc", failure_, double(bytes) / 1048576.0);
  return p;
}

void CudaMallocMemory::release(void* p, uint64_t bytes) { cudaFree(p); }

}  // namespace raydb::gpu
