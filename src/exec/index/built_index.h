#pragma once
// One secondary index built over a stored column: the access-layer KeyIndex (RT,
// sorted array or hash; in host memory for the CPU executor, or GPU-resident from
// access/gpu for the CUDA backend) plus what the planner and the executor need to
// use it for SQL: the key codec of the column type, statistics, and the mapping from
// stored-value ranges (as ColumnPredicate compiles them) to normalized lookups.
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "access/rt_index/index_config.h"
#include "access/rt_index/key_codec.h"
#include "plan/physical/access_path.h"
#include "plan/physical/cost_model.h"
#include "storage/table.h"

namespace raydb::exec {

class BuiltIndex final : public plan::IndexHandle {
 public:
  // Builds over column `column` of `table`. Throws kInvalidInput for a DOUBLE column.
  BuiltIndex(std::string name, const access::IndexConfig& config, TablePtr table, int column, rt::Tracer& tracer);
  // A GPU-resident index (access/gpu/gpu_indexes.h): `make` builds it from the
  // column's normalized keys; EXPLAIN names it by its KeyIndex name (rt-gpu:cg16384,
  // sa-gpu, hash-gpu).
  using Factory = std::function<std::unique_ptr<access::KeyIndex>(std::span<const uint64_t> keys)>;
  BuiltIndex(std::string name, plan::IndexKind kind, TablePtr table, int column, const Factory& make);

  const access::KeyIndex& index() const { return *index_; }
  const Column& key_column() const { return table_->column(size_t(column)); }
  const TablePtr& table() const { return table_; }
  access::KeyType key_type() const { return key_type_; }
  double build_ms() const { return build_ms_; }
  // Where its lookups run: kGpu for the GPU-resident indexes (access::GpuResidentIndex).
  plan::ExecDevice device() const { return device_; }

  // Lookups for stored-value ranges [lo, hi] (inclusive, in the column's stored
  // domain: integers, scaled decimals, day numbers, dictionary codes); ranges outside
  // the key type's domain are dropped.
  std::vector<access::KeyRange> lookups(std::span<const std::pair<int64_t, int64_t>> ranges) const;
  // Normalized key of one stored value; false when it lies outside the key domain
  // (e.g. a BIGINT probe value for an INTEGER column: it cannot match).
  bool encode(int64_t stored, uint64_t& key) const {
    access::KeyRange r;
    if (!access::encode_range(key_type_, stored, stored, &r.lo, &r.hi)) return false;
    key = r.lo;
    return true;
  }

 private:
  TablePtr table_;  // keeps the column's memory alive
  access::KeyType key_type_ = access::KeyType::kInt32;
  std::unique_ptr<access::KeyIndex> index_;
  double build_ms_ = 0;
  plan::ExecDevice device_ = plan::ExecDevice::kCpu;

  // Builds index_ through `make` over the column's normalized keys; fills the stats.
  void build(const Factory& make);
};

// The key type that indexes a column of `type`; false for types without one (DOUBLE).
bool key_type_for(const Type& type, access::KeyType& out);

}  // namespace raydb::exec
