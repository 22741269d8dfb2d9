#include "gpu/current_device.h"

#include "gpu/cuda_check.h"

namespace raydb::gpu {

CurrentDevice::CurrentDevice(int index) { check_cuda(cudaSetDevice(index), "cudaSetDevice"); }

}  // namespace raydb::gpu
