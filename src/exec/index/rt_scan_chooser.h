#pragma once
// The access-path choice for RT scan indexes (CREATE INDEX ... USING RTSCAN): whether
// one of a table's RT scan indexes answers the filters on its columns, by which
// method (host index: rt on Embree, cpu-sieve, cpu-scan; GPU-resident index: rt on
// OptiX, gpu-sieve, gpu-scan), and whether that beats the plain filtered scan and the
// table's best single-column index path. Costs come from plan/physical/cost_model
// (rt_scan_cost_ms on the index's device, from the index's own estimate of the work:
// jobs, sieving vectors, residual rows); nothing is evaluated here.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "exec/index/access_path_chooser.h"
#include "plan/physical/cost_model.h"

namespace raydb::exec {

// The cost model's names for the access layer's methods, and its inputs from an
// index's estimate over `rows` rows (also what `raydb bench scan` models).
plan::RtScanMethod plan_method(access::rt_scan::ScanMethod m);
plan::RtScanWork rt_scan_work(const access::rt_scan::ScanEstimate& est, uint64_t rows);

// The best RT scan path for table t, or nullopt. `scan_ms`: the plain scan's cost;
// `other_ms`: the best other index path's cost (or infinity); `after_ms(rows)`: the
// table's filters applied to that many rows the index yields; `only_method`: the one
// method allowed ("": any); `adaptive_margin`: where the runner-up's estimate is
// within this fraction of the pick's, measured times settle the method
// (ScanMethodTimings; 0: the estimates alone). When a path applies
// but is not taken, a line saying why goes to `notes`.
std::optional<plan::IndexScan> choose_rt_scan(const plan::PhysicalPlan& plan, int t,
                                              const std::vector<IndexCandidate>& candidates, AccessPolicy policy,
                                              bool force, double scan_ms, double other_ms,
                                              const std::function<double(double)>& after_ms,
                                              const std::string& only_method, double adaptive_margin,
                                              std::vector<std::string>& notes);

// The filters of an RT scan path as the index's query and the method it runs
// (execution re-derives them from the plan's path).
struct RtScanQuery {
  const BuiltScanIndex* index = nullptr;
  access::rt_scan::ScanExpr expr;
  access::rt_scan::ScanMethod method = access::rt_scan::ScanMethod::kCpuScan;
};
RtScanQuery rt_scan_query(const plan::IndexScan& scan, const plan::LogicalQuery& q);

}  // namespace raydb::exec
