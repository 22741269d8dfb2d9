#pragma once
// The access-path choice: for each table of a planned query, scan or index scan (and
// through which index), and for each join step, hash join or index-nested-loop join.
// It runs after plan::plan_query and before execution, in the executor layer because
// it needs what only executors have: predicates compiled to stored-value ranges and
// the built indexes, whose exact counts replace guesses for the candidate rows.
// Costs come from plan/physical/cost_model.h, for the device the plan runs on: the CPU
// executor with host indexes, or the CUDA backend with GPU-resident ones (where a scan
// is a few microseconds per million rows, so an index wins only when very selective).
#include <functional>
#include <optional>
#include <memory>
#include <vector>

#include "common/settings.h"
#include "exec/index/built_index.h"
#include "exec/index/built_scan_index.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec {

// An index that exists on a column of one of the query's tables. `build` returns the
// built index (building it on first use); the chooser calls it only when a predicate
// or join could use the index.
struct IndexCandidate {
  int table = -1;   // index into LogicalQuery::tables
  int column = -1;  // column index in that table
  plan::IndexKind kind = plan::IndexKind::kRt;
  std::function<std::shared_ptr<const BuiltIndex>()> build;
  // kRtScan: every indexed column in index order, and its builder (build is unset).
  std::vector<int> columns;
  std::function<std::shared_ptr<const BuiltScanIndex>()> build_scan;
};

enum class AccessPolicy {
  kCost,     // --backend auto: cheapest by the cost model, any index kind
  kNoRt,     // --backend cpu: cheapest by the cost model among sorted and hash indexes
  kForceRt,  // --backend rt: an RT index wherever one applies, else as kCost
};
// Under kNoRt an RT scan index still runs its CPU methods (cpu-sieve, cpu-scan), never
// its Embree one; under kForceRt its RT method is taken wherever it applies.

struct AccessOptions {
  AccessPolicy policy = AccessPolicy::kCost;
  // The index_paths setting (tests and benchmarks) overrides the cost comparison:
  // kForce takes an index path wherever an index applies (the kind chosen as usual:
  // the cheapest, or RT under kForceRt), kOff takes none.
  IndexPathsMode paths = IndexPathsMode::kCost;
  // kCpu: the candidates are host indexes and the CPU executor runs the plan; kGpu:
  // they are GPU-resident (BuiltIndex::device() == kGpu) and the CUDA backend runs it.
  plan::ExecDevice device = plan::ExecDevice::kCpu;
  // GPU: the cost of the plan without index paths when the backend runs it as one
  // fused pass (nullopt: it would not), from the backend's analysis. Index paths send
  // a plan to the general path, so under kCost they are kept only when their
  // plan-level cost beats this.
  std::optional<double> fused_pass_ms;
  // RT scan paths: only this method ("rt", "gpu-sieve", ...; the rt_scan_method
  // setting), or "" for the cheapest the index offers.
  std::string rt_scan_method;
  // RT scan paths: the runner-up within this fraction of the pick's estimate is timed
  // once and the faster measured method kept (the rt_scan_adaptive_margin setting;
  // 0: the estimates alone).
  double rt_scan_adaptive_margin = 0.25;
};

// Sets plan.index_scans and every step's index_join (clearing earlier choices).
void choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexCandidate>& candidates,
                         const AccessOptions& options);

}  // namespace raydb::exec
