#pragma once
// GPU baseline: an open-addressing hash table (linear probing, load <= 1/2) from each
// distinct key to its unit; a unit's rows are a run of the sorted column, so duplicates
// cost nothing extra. Point lookups only. The sorted keys are dropped after the build
// (each slot holds its key).
#include "access/gpu/gpu_key_index.h"
#include "access/gpu/gpu_ops.h"

namespace raydb::access::gpu {

class GpuHashIndex final : public GpuKeyIndex {
 public:
  GpuHashIndex(std::span<const uint64_t> keys, std::span<const int64_t> values, bool sorted_probes,
               DeviceMemory* memory = nullptr);
  std::string name() const override { return "hash-gpu"; }
  bool supports_ranges() const override { return false; }

 protected:
  double pass(rt::mapping::BucketLookupParams& p) const override;

 private:
  DeviceArray<HashSlot> slots_;
};

}  // namespace raydb::access::gpu
