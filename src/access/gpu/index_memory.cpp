#include "access/gpu/index_memory.h"

namespace raydb::access::gpu {

DeviceMemory& index_memory(DeviceMemory* chosen) {
  static raydb::gpu::CudaMallocMemory plain(kIndexAllocErrors);
  return chosen != nullptr ? *chosen : plain;
}

}  // namespace raydb::access::gpu
