#pragma once
// The GPU-resident indexes' wording of CUDA failures ("GPU index: ..."), for
// gpu::check_cuda. C++17, so device code (gpu_ops.cu) includes it too.
#include "gpu/cuda_check.h"

namespace raydb::access::gpu {

// A failed copy or synchronization: "GPU index: <what> failed: <error>".
extern const raydb::gpu::CudaErrorStyle kIndexCallErrors;
// A failed kernel or CUB call (check()): "GPU index: <what>: <error>", out of memory
// "GPU index: out of GPU memory in <what>".
extern const raydb::gpu::CudaErrorStyle kIndexKernelErrors;
// A failed cudaMalloc of an index array.
extern const raydb::gpu::CudaErrorStyle kIndexAllocErrors;

}  // namespace raydb::access::gpu
