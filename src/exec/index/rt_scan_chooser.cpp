#include "exec/index/rt_scan_chooser.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "common/error.h"
#include "exec/index/scan_filter.h"
#include "plan/physical/cost_model.h"

namespace raydb::exec {

namespace rs = access::rt_scan;
using plan::RtScanMethod;

namespace {

rs::ScanMethod access_method(RtScanMethod m) {
  switch (m) {
    case RtScanMethod::kRt: return rs::ScanMethod::kRt;
    case RtScanMethod::kCpuSieve: return rs::ScanMethod::kCpuSieve;
    case RtScanMethod::kCpuScan: return rs::ScanMethod::kCpuScan;
  }
  return rs::ScanMethod::kCpuScan;
}

std::optional<RtScanMethod> plan_method(rs::ScanMethod m) {
  switch (m) {
    case rs::ScanMethod::kRt: return RtScanMethod::kRt;
    case rs::ScanMethod::kCpuSieve: return RtScanMethod::kCpuSieve;
    case rs::ScanMethod::kCpuScan: return RtScanMethod::kCpuScan;
    default: return std::nullopt;  // GPU methods: not on a host index
  }
}

int table_of(const plan::Expr& e) {
  if (e.kind == plan::ExprKind::kColumnRef) return e.table_index;
  for (auto& c : e.children)
    if (int t = table_of(*c); t >= 0) return t;
  return -1;
}

// One index's path for table t: the method the policy allows at the lowest cost.
std::optional<plan::IndexScan> path_for(const BuiltScanIndex& index, const ScanFilter& f, AccessPolicy policy,
                                        const std::vector<plan::ExprPtr>& filters, double scan_ms) {
  const rs::ScanEstimate est = index.index().estimate(f.expr);
  plan::RtScanWork w;
  w.rows = index.rows;
  w.predicates = est.predicates;
  w.jobs = est.jobs;
  w.sieve_vectors = est.sieve_vectors;
  w.residual_rows = est.residual_rows;
  w.slabs = est.slabs;
  w.matches = est.match_fraction * double(index.rows);
  // The rows it yields still pass through every filter of the table (as for any index scan).
  const double after_ms = plan::scan_cost_ms(uint64_t(w.matches), int(filters.size()));
  std::optional<plan::IndexScan> best;
  std::string costs;
  for (rs::ScanMethod am : index.index().methods()) {
    auto m = plan_method(am);
    if (!m || (policy == AccessPolicy::kNoRt && *m == RtScanMethod::kRt)) continue;
    const double ms = plan::rt_scan_cost_ms(*m, w) + after_ms;
    costs += fmt::format("{}{} {:.3f} ms", costs.empty() ? "" : ", ", plan::rt_scan_method_name(*m), ms);
    // --backend rt takes the RT method whatever it costs; else the cheapest.
    const bool take = !best || (policy == AccessPolicy::kForceRt ? *m == RtScanMethod::kRt
                                                                 : ms < best->cost_ms);
    if (!take || (best && policy == AccessPolicy::kForceRt && best->scan_method == "rt")) continue;
    plan::IndexScan s;
    s.mode = "rt scan";
    s.candidates = uint64_t(w.matches);
    s.cost_ms = ms;
    s.scan_cost_ms = scan_ms;
    s.scan_method = plan::rt_scan_method_name(*m);
    best = std::move(s);
  }
  if (best) best->method_costs = "methods: " + costs;
  return best;
}

}  // namespace

std::optional<plan::IndexScan> choose_rt_scan(const plan::PhysicalPlan& plan, int t,
                                              const std::vector<IndexCandidate>& candidates, AccessPolicy policy,
                                              bool force, double scan_ms, double other_ms,
                                              std::vector<std::string>& notes) {
  const plan::LogicalQuery& q = *plan.query;
  const auto& filters = plan.table_filters[size_t(t)];
  if (filters.empty()) return std::nullopt;
  std::optional<plan::IndexScan> best;
  for (const IndexCandidate& c : candidates) {
    if (c.table != t || c.kind != plan::IndexKind::kRtScan || !c.build_scan) continue;
    auto f = scan_filter_for(filters, q, t, c.columns);
    if (!f) continue;
    std::shared_ptr<const BuiltScanIndex> index = c.build_scan();
    auto s = path_for(*index, *f, policy, filters, scan_ms);
    if (!s) continue;
    s->index = index;
    s->covered = f->covered;
    s->predicate = f->covered.size() == 1 ? f->covered[0] : plan::Expr::conjunction(true, f->covered);
    s->detail = index->index().explain(f->expr);
    if (!best || s->cost_ms < best->cost_ms) best = std::move(s);
  }
  if (!best) return std::nullopt;
  const bool forced = force || (policy == AccessPolicy::kForceRt && best->scan_method == "rt");
  if (forced || (best->cost_ms < scan_ms && best->cost_ms < other_ms)) return best;
  notes.push_back(fmt::format("rt scan {} via {} not taken: {} ({}) vs scan {:.3f} ms{}", q.tables[size_t(t)].alias,
                              best->index->name, fmt::format("{} {:.3f} ms", best->scan_method, best->cost_ms),
                              best->method_costs, scan_ms,
                              other_ms < std::numeric_limits<double>::infinity()
                                  ? fmt::format(", index scan {:.3f} ms", other_ms)
                                  : std::string()));
  return std::nullopt;
}

RtScanQuery rt_scan_query(const plan::IndexScan& scan, const plan::LogicalQuery& q) {
  RtScanQuery out;
  out.index = dynamic_cast<const BuiltScanIndex*>(scan.index.get());
  if (!out.index || scan.covered.empty()) fail(ErrorKind::kInternal, "rt scan path without an RT scan index");
  const int t = table_of(*scan.covered[0]);
  auto f = scan_filter_for(scan.covered, q, t, out.index->columns());
  if (!f || f->covered.size() != scan.covered.size())
    fail(ErrorKind::kInternal, "index {} no longer answers {}", out.index->name, scan.predicate->to_string());
  out.expr = std::move(f->expr);
  for (RtScanMethod m : {RtScanMethod::kRt, RtScanMethod::kCpuSieve, RtScanMethod::kCpuScan})
    if (scan.scan_method == plan::rt_scan_method_name(m)) out.method = access_method(m);
  return out;
}

}  // namespace raydb::exec
