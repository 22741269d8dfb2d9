#include "exec/index/rt_scan_chooser.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
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
    case RtScanMethod::kGpuScan: return rs::ScanMethod::kGpuScan;
    case RtScanMethod::kGpuSieve: return rs::ScanMethod::kGpuSieve;
  }
  return rs::ScanMethod::kCpuScan;
}


int table_of(const plan::Expr& e) {
  if (e.kind == plan::ExprKind::kColumnRef) return e.table_index;
  for (auto& c : e.children)
    if (int t = table_of(*c); t >= 0) return t;
  return -1;
}

double best_cost(const std::optional<plan::IndexScan>& s) {
  return s ? s->cost_ms : std::numeric_limits<double>::infinity();
}

// One index's path for table t: the method the policy allows at the lowest cost, on
// the device the index lives on. `after_ms(rows)`: every filter of the table applied
// to the rows it yields (as for any index scan), by the executor that runs the plan.
std::optional<plan::IndexScan> path_for(const BuiltScanIndex& index, const ScanFilter& f, AccessPolicy policy,
                                        const std::function<double(double)>& after_ms, double scan_ms,
                                        const std::string& only_method) {
  const plan::RtScanWork w = rt_scan_work(index.index().estimate(f.expr), index.rows);
  const double after = after_ms(w.matches);
  std::optional<plan::IndexScan> best;
  std::string costs;
  for (rs::ScanMethod am : index.index().methods()) {
    const RtScanMethod m = plan_method(am);
    if (policy == AccessPolicy::kNoRt && m == RtScanMethod::kRt) continue;
    if (!only_method.empty() && only_method != plan::rt_scan_method_name(m)) continue;
    const double ms = plan::rt_scan_cost_ms(index.device(), m, w) + after;
    costs += fmt::format("{}{} {:.3f} ms", costs.empty() ? "" : ", ", plan::rt_scan_method_name(m), ms);
    // --backend rt takes the RT method whatever it costs; else the cheapest, and on a
    // tie not the RT one (with nothing to refine it is the sieve method's work plus a tracer).
    const bool cheaper = ms < best_cost(best) || (ms == best_cost(best) && best->scan_method == "rt");
    const bool take = !best || (policy == AccessPolicy::kForceRt ? m == RtScanMethod::kRt : cheaper);
    if (!take || (best && policy == AccessPolicy::kForceRt && best->scan_method == "rt")) continue;
    plan::IndexScan s;
    s.mode = "rt scan";
    s.candidates = uint64_t(w.matches);
    s.cost_ms = ms;
    s.scan_cost_ms = scan_ms;
    s.scan_method = plan::rt_scan_method_name(m);
    best = std::move(s);
  }
  if (best) best->method_costs = "methods: " + costs;
  return best;
}

}  // namespace

RtScanMethod plan_method(rs::ScanMethod m) {
  switch (m) {
    case rs::ScanMethod::kRt: return RtScanMethod::kRt;
    case rs::ScanMethod::kCpuSieve: return RtScanMethod::kCpuSieve;
    case rs::ScanMethod::kCpuScan: return RtScanMethod::kCpuScan;
    case rs::ScanMethod::kGpuScan: return RtScanMethod::kGpuScan;
    case rs::ScanMethod::kGpuSieve: return RtScanMethod::kGpuSieve;
  }
  return RtScanMethod::kCpuScan;
}

plan::RtScanWork rt_scan_work(const rs::ScanEstimate& est, uint64_t rows) {
  plan::RtScanWork w;
  w.rows = rows;
  w.predicates = est.predicates;
  w.jobs = est.jobs;
  w.refine_jobs = est.refine_jobs;
  w.sieve_vectors = est.sieve_vectors;
  w.residual_rows = est.residual_rows;
  w.slabs = est.slabs;
  w.matches = est.match_fraction * double(rows);
  w.scan_columns = est.scan_columns;
  w.sieve_passes = est.sieve_passes;
  w.refine_sectors = est.refine_sectors;
  w.slab_rows = est.slab_rows;
  return w;
}

std::optional<plan::IndexScan> choose_rt_scan(const plan::PhysicalPlan& plan, int t,
                                              const std::vector<IndexCandidate>& candidates, AccessPolicy policy,
                                              bool force, double scan_ms, double other_ms,
                                              const std::function<double(double)>& after_ms,
                                              const std::string& only_method, std::vector<std::string>& notes) {
  const plan::LogicalQuery& q = *plan.query;
  const auto& filters = plan.table_filters[size_t(t)];
  if (filters.empty()) return std::nullopt;
  std::optional<plan::IndexScan> best;
  for (const IndexCandidate& c : candidates) {
    if (c.table != t || c.kind != plan::IndexKind::kRtScan || !c.build_scan) continue;
    auto f = scan_filter_for(filters, q, t, c.columns);
    if (!f) continue;
    std::shared_ptr<const BuiltScanIndex> index = c.build_scan();
    auto s = path_for(*index, *f, policy, after_ms, scan_ms, only_method);
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
  bool known = false;
  for (RtScanMethod m : {RtScanMethod::kRt, RtScanMethod::kCpuSieve, RtScanMethod::kCpuScan, RtScanMethod::kGpuScan,
                         RtScanMethod::kGpuSieve})
    if (scan.scan_method == plan::rt_scan_method_name(m)) {
      out.method = access_method(m);
      known = true;
    }
  if (!known) fail(ErrorKind::kInternal, "rt scan path with method '{}'", scan.scan_method);
  return out;
}

}  // namespace raydb::exec
