#pragma once
// One secondary index built in memory over a stored column: the access-layer
// KeyIndex (RT, sorted array or hash) plus what the planner and the executor need
// to use it for SQL: the key codec of the column type, statistics, and the mapping
// from stored-value ranges (as ColumnPredicate compiles them) to normalized lookups.
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "access/rt_index/index_config.h"
#include "access/rt_index/key_codec.h"
#include "plan/physical/access_path.h"
#include "storage/table.h"

namespace raydb::exec {

class BuiltIndex final : public plan::IndexHandle {
 public:
  // Builds over column `column` of `table`. Throws kInvalidInput for a DOUBLE column.
  BuiltIndex(std::string name, const access::IndexConfig& config, TablePtr table, int column, rt::Tracer& tracer);

  const access::KeyIndex& index() const { return *index_; }
  const Column& key_column() const { return table_->column(size_t(column)); }
  const TablePtr& table() const { return table_; }
  access::KeyType key_type() const { return key_type_; }
  double build_ms() const { return build_ms_; }

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
};

// The key type that indexes a column of `type`; false for types without one (DOUBLE).
bool key_type_for(const Type& type, access::KeyType& out);

}  // namespace raydb::exec
