#pragma once
// Device memory of the GPU-resident indexes: their arrays are gpu::DeviceArray over the
// memory the index was given (the SQL executor's accounted pool), or plain cudaMalloc
// (benchmarks, tests).
#include "access/gpu/index_errors.h"
#include "gpu/device_array.h"

namespace raydb::access::gpu {

using raydb::gpu::DeviceArray;
using raydb::gpu::DeviceMemory;

// `chosen`, or unaccounted cudaMalloc when null.
DeviceMemory& index_memory(DeviceMemory* chosen);

}  // namespace raydb::access::gpu
