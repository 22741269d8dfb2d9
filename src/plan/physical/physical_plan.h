#pragma once
// The physical plan of one query block: where each conjunct is evaluated, which table
// streams (the probe root) and which tables are built into join tables, in what
// order they are probed, how the block aggregates, and on which backend it runs.
//
// Shape (a left-deep pipeline over the largest table, as star queries want):
//   scan(root) -> filter(root filters) -> probe(join 1) -> residuals -> probe(join 2)
//     -> ... -> aggregate | project -> having -> select -> distinct -> order -> limit
// Each build table is scanned and filtered once into a join table keyed on its join
// columns (a dense key-indexed array when the key range allows, else a hash table).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plan/logical/logical_query.h"
#include "plan/physical/access_path.h"

namespace raydb::plan {

enum class BackendKind { kCpu, kCuda };
const char* backend_kind_name(BackendKind b);

struct JoinStep {
  int build_table = -1;             // index into LogicalQuery::tables
  std::vector<ExprPtr> probe_keys;  // over tables bound before this step
  std::vector<ExprPtr> build_keys;  // over build_table only; same count and comparable types
  // Tables this step's probe keys read (bit mask); the step may run once they are bound.
  uint64_t depends_on = 0;
  // Conjuncts over several tables that become checkable once this step is done.
  std::vector<ExprPtr> residuals;
  // Estimated fraction of probe rows that find a match (for ordering; refined by
  // the executor with exact build-side counts).
  double est_selectivity = 1.0;
  // Set when the build side is probed through an index (access_path.h) instead of
  // being built into a join table.
  std::optional<IndexJoin> index_join;
};

// What a backend learnt about a plan when it admitted it (its shape, the bytes it must
// move, the cost of its fastest pass), carried forward in the plan so that the
// access-path choice and execution do not analyse it again. Each backend derives its
// own (exec/cuda/cuda_plan_analysis.h); plan/ only carries it.
struct BackendAnalysis {
  virtual ~BackendAnalysis() = default;
  virtual const char* describe() const = 0;  // for EXPLAIN, e.g. "star kernels"
};

struct PhysicalPlan {
  std::shared_ptr<const LogicalQuery> query;
  BackendKind backend = BackendKind::kCpu;
  bool always_empty = false;  // a constant conjunct is false or NULL

  int root_table = 0;
  // Single-table conjuncts, per table index (root's are applied while streaming).
  std::vector<std::vector<ExprPtr>> table_filters;
  std::vector<JoinStep> joins;  // a valid probe order; executors may reorder by exact counts
  // Conjuncts that become checkable right after the root scan (multi-column over root only
  // are in table_filters; this holds constant-free leftovers, normally empty).
  std::vector<ExprPtr> root_residuals;
  // Per table: rows found through an index instead of a scan (empty: scan all).
  std::vector<std::optional<IndexScan>> index_scans;

  // Set when the whole query runs as one launch over an RT view (access_path.h); the
  // views considered and why each was not taken, for EXPLAIN.
  std::optional<ViewScan> view_scan;
  std::vector<std::string> rejected_views;

  // Set by the backend that admitted the plan (see BackendAnalysis).
  std::shared_ptr<const BackendAnalysis> analysis;
  // The backend choice as EXPLAIN shows it: each backend tried and why it was not
  // taken ("cuda: no CUDA device: ...").
  std::vector<std::string> rejected_backends;
  // Access paths that applied but were not taken, and why (costs), as EXPLAIN shows
  // them ("rt scan t via idx not taken: ...").
  std::vector<std::string> access_notes;

  bool has_index_paths() const;
  void clear_index_paths();
  std::string explain() const;
};

}  // namespace raydb::plan
