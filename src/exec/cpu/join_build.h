#pragma once
// The build side of one join step on the CPU: the build table scanned and filtered
// in parallel, its keys encoded and grouped into a JoinTable (or, for an index join,
// nothing built: probes look their keys up in the column's index; for a cross
// product, the filtered rows), and the order in which the pipeline probes the steps.
#include <cstdint>
#include <memory>
#include <vector>

#include "exec/core/key_encoder.h"
#include "exec/cpu/join_key_codec.h"
#include "exec/cpu/join_table.h"
#include "exec/cpu/table_filter.h"
#include "exec/index/built_index.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cpu {

struct BuiltJoin {
  const plan::JoinStep* step = nullptr;
  int table = -1;
  JoinTable index;
  std::vector<std::unique_ptr<JoinKeyCodec>> codecs;
  std::vector<plan::ExprPtr> residuals;
  double selectivity = 1;
  uint64_t build_rows = 0;  // build-table rows that passed its filters (EXPLAIN ANALYZE)
  double build_ms = 0;      // time to scan, reduce and index the build side (EXPLAIN ANALYZE)
  uint64_t depends_on = 0;
  bool cross = false;  // no keys: every probe row matches every build row
  std::vector<uint32_t> cross_rows;
  // Fast path: one integer key read straight from a probe column into a unique index.
  const Column* fast_column = nullptr;
  int fast_table = -1;
  // Index-nested-loop join: probe keys are looked up in this index of the build
  // table's key column (no join table is built); matches pass build_filter.
  const BuiltIndex* index_join = nullptr;
  const TableFilter* build_filter = nullptr;
  // The [min, max] of the build keys that passed the build side's filters (min > max:
  // none), when one integer key column joins probe column `probe_column` of table
  // `probe_table` in the same stored domain: probe rows outside it find no match, so
  // the probe table's zone maps can skip their blocks (a star query's date filter
  // becomes a lo_orderdate range).
  bool has_key_range = false;
  int64_t key_min = 1, key_max = 0;
  int probe_table = -1, probe_column = -1;
};

// A built step that reduces another step's build rows: rows whose `keys` (over the
// reduced step's build table) find no match in `join` are dropped.
struct SemiReducer {
  const BuiltJoin* join = nullptr;
  std::vector<const plan::Expr*> keys;
  // A reduction by one of join's key columns: keys holds one expression, encoded as
  // join's key `column` is, and a row is kept when its word is among `values` (join's
  // distinct build words there, sorted).
  int column = -1;
  std::vector<int64_t> values;
};

// Builds one step. `index_scan`: the build table's index scan, when it has one.
// `semi`: built steps whose build side is filtered (reduces_build) and that every
// joined row must also match with these build rows' keys: steps probed only from this
// step's table (keys: their probe keys), or a one-key step probed by the same
// expression as one of this step's probe keys (keys: this step's build key there,
// equal to that expression in every joined row); the build rows without a match in
// each are dropped (a semi-join reduction: an inner join there would drop them).
BuiltJoin build_join(const plan::JoinStep& step, const TableFilter& filter, const plan::IndexScan* index_scan,
                     const plan::LogicalQuery& q, int threads, const std::vector<SemiReducer>& semi = {});

// The step of `built` (indices into plan steps, built already) that reduce step i by a
// shared probe key (see build_join's `semi`).
std::vector<SemiReducer> key_equivalent_reducers(const std::vector<plan::JoinStep>& steps, size_t i,
                                                 const std::vector<const BuiltJoin*>& built,
                                                 const plan::LogicalQuery& q);

// Built steps of two or more keys, one of whose probe keys reads only step i's build
// table (TPC-H Q5: supplier on (l_suppkey, c_nationkey) for customer): every joined
// row has that key equal to one of the step's build rows, so step i's rows whose value
// is none of them are dropped.
std::vector<SemiReducer> column_reducers(const std::vector<plan::JoinStep>& steps, size_t i,
                                         const std::vector<const BuiltJoin*>& built, const plan::LogicalQuery& q);
// Whether some step not built yet could reduce step i as column_reducers does.
bool column_reducer_pending(const std::vector<plan::JoinStep>& steps, size_t i,
                            const std::vector<const BuiltJoin*>& built);

// Whether built step d drops rows of the table it is probed from: a join table (not an
// index or cross join) holding fewer rows than its table.
bool reduces_build(const BuiltJoin& d, const plan::LogicalQuery& q);

// Orders built joins (exec/core/join_order.h, shared with the other backends) and
// re-places each residual at the first step where all its tables are bound.
std::vector<BuiltJoin*> order_joins(std::vector<BuiltJoin>& joins, int root);

}  // namespace raydb::exec::cpu
