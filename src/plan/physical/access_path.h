#pragma once
// Access paths other than a full scan: a table's rows found through a secondary
// index (point, IN or range predicates on the indexed column), and equality joins
// whose build side is probed through an index on its key column (index-nested-loop
// join) instead of being scanned into a join table. plan/ only describes them; the
// executor layer owns the built indexes (it subclasses IndexHandle) and decides,
// with exact counts from the indexes and the cost model (cost_model.h), which path
// each table and join takes.
#include <memory>
#include <string>

#include "common/index_kind.h"
#include "plan/logical/expression.h"

namespace raydb::plan {

using raydb::IndexKind;  // common/index_kind.h
using raydb::index_kind_name;

// A built index on one column of one table.
class IndexHandle {
 public:
  virtual ~IndexHandle() = default;
  std::string name;
  IndexKind kind = IndexKind::kRt;
  int column = -1;             // column index in its table
  uint64_t rows = 0;           // indexed rows (the table's)
  uint64_t distinct_keys = 0;  // distinct keys
  bool supports_ranges = true;
  // How and where its lookups run when the kind alone does not say (GPU-resident
  // indexes: "rt-gpu:cg16384", "sa-gpu", "hash-gpu"); EXPLAIN prints it instead of the kind.
  std::string method;
  const char* describe() const { return method.empty() ? index_kind_name(kind) : method.c_str(); }
};

// A table's rows come from an index: the index yields candidate row ids for
// `predicate` (one of the table's filters), and all of the table's filters are
// still applied to them, so the result is the scan's.
struct IndexScan {
  std::shared_ptr<const IndexHandle> index;
  ExprPtr predicate;
  std::string mode;         // "point", "in" or "range"
  uint64_t candidates = 0;  // exact number of rows the index returns
  double cost_ms = 0;       // estimated, this path
  double scan_cost_ms = 0;  // estimated, the scan it replaces
  // RT scan paths (index kind kRtScan; mode "rt scan"): the table's filters the index
  // answers as one boolean job (`predicate` is their conjunction), the scan method
  // the cost model picked, every method's estimate, and the index's EXPLAIN text
  // (groups, sieving vectors, refine slabs). The other filters still apply.
  std::vector<ExprPtr> covered;
  std::string scan_method;  // "rt", "cpu-sieve", "cpu-scan"
  std::string method_costs;
  // How the method was chosen ("model", "explore: ...", "measured 0.214 ms vs gpu-scan
  // 0.245 ms"; empty when one method was forced), and where the runner-up was within
  // the adaptive margin the key the executor records the evaluation's time under.
  std::string method_note;
  std::string timing_key;
  std::string detail;
};

// A join step probes an index on the build table's key column with the probe keys,
// rather than scanning and hashing the build table.
struct IndexJoin {
  std::shared_ptr<const IndexHandle> index;
  double est_probes = 0;       // probe rows expected at this step (upper bound)
  double cost_ms = 0;          // estimated, this path
  double hash_cost_ms = 0;     // estimated, the hash join it replaces
};

// The whole filter + join + group-by + aggregate of a star query answered by one
// ray-tracing launch over an RT view (RTCUDB). plan/ only describes it; the executor
// layer subclasses ViewHandle with the matched request (exec/index/view_chooser.h).
class ViewHandle {
 public:
  virtual ~ViewHandle() = default;
  std::string name;
};

struct ViewScan {
  std::shared_ptr<const ViewHandle> view;
  std::string detail;        // Z intervals, ray grid, per-hit checks, for EXPLAIN
  bool forced = false;       // --backend rt (no cost comparison)
  double cost_ms = -1;       // estimated, this path; < 0: views not calibrated on the device
  double star_cost_ms = 0;   // estimated, the star / scan path it replaces (scaled to the device)
};

}  // namespace raydb::plan
