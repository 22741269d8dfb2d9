#pragma once
// GPU baseline: the sorted key column on the device and one thread per lookup doing a
// binary search for lo, then a doubling search for the end of the range.
#include "access/gpu/gpu_key_index.h"

namespace raydb::access::gpu {

class GpuSortedArrayIndex final : public GpuKeyIndex {
 public:
  GpuSortedArrayIndex(std::span<const uint64_t> keys, std::span<const int64_t> values, bool sorted_probes,
                      DeviceMemory* memory = nullptr);
  std::string name() const override { return "sa-gpu"; }

 protected:
  double pass(rt::mapping::BucketLookupParams& p) const override;
};

}  // namespace raydb::access::gpu
