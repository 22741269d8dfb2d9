#pragma once
// Base of the GPU-resident indexes (sorted array, hash table, interval-bucket RT
// index): the sorted key column lives on the device (GpuSortedKeys) and a subclass only
// runs one lookup pass over lookups already on the device. The host API uploads the
// batch, optionally sorts the probes on the device (CUB), runs the pass(es) and copies
// the results back; last_lookup_times() has the pass alone (launch_ms) and the probe
// sort (sort_ms) as device times. find_runs (GpuResidentIndex) is the same pass over
// lookups the caller already holds on the device.
#include "access/gpu/gpu_indexes.h"
#include "access/gpu/gpu_sorted_keys.h"
#include "rt/mapping/bucket_lookup.h"

namespace raydb::access::gpu {

class GpuKeyIndex : public KeyIndex, public GpuResidentIndex {
 public:
  size_t size() const override { return sk_.size(); }
  const IndexStats& stats() const override { return stats_; }
  void aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const override;
  void materialize(std::span<const KeyRange> lookups, RowIdLists& out) const override;
  LookupTimes last_lookup_times() const override { return times_; }

  uint64_t distinct_keys() const override { return sk_.units(); }
  void find_runs(const uint64_t* bounds, uint32_t n, uint64_t* count, rt::mapping::KeyRun* runs,
                 void* stream) const override;
  const uint32_t* device_rows() const override { return sk_.rows(); }

 protected:
  GpuKeyIndex(bool sorted_probes, DeviceMemory* memory)  // memory: null for plain cudaMalloc
      : sorted_probes_(sorted_probes), memory_(index_memory(memory)) {
    sk_.use(memory_);
  }
  // One pass over p.n lookups (p's pointers are device memory; the sorted-key fields are
  // filled in); returns its device milliseconds.
  virtual double pass(rt::mapping::BucketLookupParams& p) const = 0;

  GpuSortedKeys sk_;
  IndexStats stats_;
  bool sorted_probes_;
  DeviceMemory& memory_;

 private:
  struct Batch;
  Batch prepare(std::span<const KeyRange> lookups) const;
  void order(Batch& b) const;
  double run(const Batch& b, rt::mapping::BucketLookupParams& p) const;
  mutable LookupTimes times_;
};

}  // namespace raydb::access::gpu
