#pragma once
// The RT index built on the GPU: cgRX's coarse buckets as interval boxes
// (rt/mapping/bucket_grid.h). The sorted column comes from GpuSortedKeys; a kernel
// writes the boxes of every bucket straight into a device buffer (count, CUB prefix
// sum, write), the OptiX tracer builds and compacts the BVH from that buffer in place,
// and the boxes are freed. Resident: sorted keys, row ids, values, one bucket id per
// box, the last key per bucket, and the compacted BVH. Lookups are one optixLaunch of bucket_lookup.h.
#include <memory>

#include "access/gpu/gpu_key_index.h"
#include "rt/tracer.h"

namespace raydb::access::gpu {

class GpuBucketRtIndex final : public GpuKeyIndex {
 public:
  // tracer must be a GPU tracer and outlive the index.
  GpuBucketRtIndex(rt::Tracer& tracer, std::span<const uint64_t> keys, std::span<const int64_t> values,
                   uint32_t bucket_size, bool sorted_probes, DeviceMemory* memory = nullptr);
  ~GpuBucketRtIndex() override;
  std::string name() const override {
    return "rt-gpu:cg" + std::to_string(bucket_size_) + (sorted_probes_ ? "+sortprobes" : "");
  }
  size_t primitives() const { return table_ ? table_->prims : 0; }

 protected:
  double pass(rt::mapping::BucketLookupParams& p) const override;

 private:
  rt::Tracer& tracer_;
  uint32_t bucket_size_;
  DeviceArray<uint32_t> prim_bucket_;
  DeviceArray<uint64_t> bucket_last_;
  std::unique_ptr<rt::mapping::BucketTable> table_;  // the hit record's copy; stable address
  std::unique_ptr<rt::Accel> accel_;
};

}  // namespace raydb::access::gpu
