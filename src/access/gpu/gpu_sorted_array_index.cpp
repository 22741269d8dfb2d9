#include "access/gpu/gpu_sorted_array_index.h"

#include "access/gpu/gpu_ops.h"

namespace raydb::access::gpu {

GpuSortedArrayIndex::GpuSortedArrayIndex(std::span<const uint64_t> keys, std::span<const int64_t> values,
                                         bool sorted_probes, DeviceMemory* memory)
    : GpuKeyIndex(sorted_probes, memory) {
  sk_.build(keys, values, stats_);
  stats_.memory_bytes = sk_.memory_bytes();
  stats_.peak_build_bytes = stats_.memory_bytes + keys.size() * 28;  // + inputs and the sort's buffers
}

double GpuSortedArrayIndex::pass(rt::mapping::BucketLookupParams& p) const { return sorted_array_lookup(p); }

}  // namespace raydb::access::gpu
