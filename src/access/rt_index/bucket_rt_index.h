#pragma once
// The interval-bucket RT index built on the host, for any tracer (Embree in CI, OptiX
// for comparison with the GPU build of access/gpu/gpu_bucket_rt_index.h): cgRX's
// buckets of B sorted distinct keys as interval boxes (rt/mapping/bucket_grid.h), one
// point ray per lookup (rt/mapping/bucket_lookup.h). Same mapping and program as the
// GPU build; only where sorting and box generation run differs.
#include <memory>

#include "access/rt_index/run_index.h"
#include "rt/mapping/bucket_lookup.h"
#include "rt/tracer.h"

namespace raydb::access {

class BucketRtIndex final : public RunIndex {
 public:
  BucketRtIndex(rt::Tracer& tracer, std::span<const uint64_t> keys, std::span<const int64_t> values,
                uint32_t bucket_size, bool sorted_probes);
  ~BucketRtIndex() override;

  std::string name() const override {
    return "rt-bucket:cg" + std::to_string(bucket_size_) + (sorted_probes_ ? "+sortprobes" : "");
  }
  size_t primitives() const { return prim_bucket_.size(); }
  void aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const override;
  void materialize(std::span<const KeyRange> lookups, RowIdLists& out) const override;

 protected:
  Run find_run(const KeyRange& q) const override;

 private:
  struct Batch;
  Batch prepare(std::span<const KeyRange> lookups) const;
  void run(const Batch& b, rt::mapping::BucketLookupParams& p) const;

  rt::Tracer& tracer_;
  uint32_t bucket_size_;
  std::vector<uint32_t> prim_bucket_;
  std::vector<uint64_t> bucket_last_;
  std::vector<std::unique_ptr<rt::Buffer>> table_buffers_;
  std::unique_ptr<rt::mapping::BucketTable> table_;  // where the tracer reads; stable address
  const uint32_t* unit_starts_ = nullptr;
  const uint32_t* rows_ = nullptr;
  const int64_t* values_ = nullptr;
  std::unique_ptr<rt::Accel> accel_;
};

}  // namespace raydb::access
