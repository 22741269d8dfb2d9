#pragma once
// Order statistics (median, quantiles, k-th values) that select straight from a stored
// column of the pipeline's root table: the pipeline records which root rows reached
// the aggregation and their groups (row_groups.h), and the selection library reads
// the column in place with that mask and those group ids (exec/core/order_statistics):
// few groups take per-group digit histograms, one pass per digit over the column;
// many groups a segmented select (a counting sort of the rows by group, then each
// group selected in cache). Nothing is collected per row, unlike the general path
// (AggregateStates collects a (group, value) pair per row and selects at the end).
//
// An aggregate qualifies when it is not DISTINCT and its argument is a plain column
// of the root table without NULLs (INTEGER, DATE, BIGINT, DECIMAL, DOUBLE, VARCHAR
// codes); the query when every join is unique (a root row reaches the aggregation at
// most once) and the root is scanned, not read through an index's candidates.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/settings.h"
#include "exec/core/aggregate_states.h"
#include "exec/cpu/row_groups.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cpu {

class ColumnOrderStats {
 public:
  // Which aggregates of q read their root column in place; none unless root_rows_once
  // (or with mode kCollect). kAuto picks histograms or segments by group count.
  ColumnOrderStats(const plan::LogicalQuery& q, int root, bool root_rows_once, CpuOrderStats mode);

  bool any() const { return any_; }
  bool in_place(size_t a) const { return a < in_place_.size() && in_place_[a]; }

  // Selects every in-place aggregate over `groups` global groups (rows' group ids
  // already global, `counts` rows per group) and loads the results into `states`,
  // whose other aggregates are merged already (a k given by count(*) / 2 reads them
  // for the groups `gids`). Returns a line for EXPLAIN ANALYZE saying how.
  std::string select_into(const RowGroups& rows, const std::vector<uint64_t>& counts, AggregateStates& states,
                   const std::vector<uint32_t>& gids, int threads) const;

 private:
  const plan::LogicalQuery& q_;
  int root_;
  CpuOrderStats mode_;
  bool any_ = false;
  std::vector<bool> in_place_;
};

}  // namespace raydb::exec::cpu
