#include "exec/index/rt_scan_chooser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "common/error.h"
#include "exec/index/scan_filter.h"
#include "exec/index/scan_method_timings.h"
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

// The predicate shape without its constants: columns, operators and the boolean tree.
void append_shape(const rs::ScanExpr& e, std::string& out) {
  using K = rs::ScanExpr::Kind;
  switch (e.kind) {
    case K::kPredicate: out += fmt::format("c{}o{}", e.predicate.column, int(e.predicate.op)); return;
    case K::kTrue: out += "T"; return;
    case K::kFalse: out += "F"; return;
    case K::kAnd: out += "&("; break;
    case K::kOr: out += "|("; break;
    case K::kNot: out += "!("; break;
  }
  for (const rs::ScanExpr& c : e.children) {
    append_shape(c, out);
    out += ',';
  }
  out += ')';
}

// Where measured method times are shared: one index build, one predicate shape, the
// estimate's match fraction in half-octave buckets (the methods' relative speed moves
// with it), one device.
std::string timing_key(const BuiltScanIndex& index, const rs::ScanExpr& e, const rs::ScanEstimate& est) {
  std::string key = fmt::format("{}#{}|", index.name, index.serial());
  append_shape(e, key);
  const int bucket = est.match_fraction > 0 ? int(std::floor(2 * std::log2(est.match_fraction))) : -1000;
  return key + fmt::format("|{}|{}", bucket, index.device() == plan::ExecDevice::kGpu ? "gpu" : "cpu");
}

// The method one index's path runs: --backend rt takes the RT method whatever it
// costs (else the first the index offers); else the cheapest estimate, on a tie not
// the RT one (with nothing to refine it is the sieve method's work plus a tracer),
// refined by measurement among the methods within `margin` (ScanMethodTimings). With
// nothing to refine the RT method runs the sieve method's kernels, so it is no
// candidate of its own then. Every method returns the same bit vector, so the
// refinement never changes a result.
MethodChoice choose_method(const std::vector<CostedMethod>& costed, AccessPolicy policy, bool one_method,
                           const std::string& key, double margin, bool rt_is_sieve) {
  if (policy == AccessPolicy::kForceRt) {
    for (const CostedMethod& c : costed)
      if (c.method == "rt") return {c.method, ChoiceSource::kModel, false, ""};
    return {costed[0].method, ChoiceSource::kModel, false, ""};
  }
  std::vector<CostedMethod> ranked = costed;
  std::stable_sort(ranked.begin(), ranked.end(), [](const CostedMethod& a, const CostedMethod& b) {
    return std::pair(a.model_ms, a.method == "rt") < std::pair(b.model_ms, b.method == "rt");
  });
  if (one_method) return {ranked[0].method, ChoiceSource::kModel, false, ""};
  const bool has_sieve = std::any_of(ranked.begin(), ranked.end(), [](const CostedMethod& c) {
    return c.method == "cpu-sieve" || c.method == "gpu-sieve";
  });
  if (rt_is_sieve && has_sieve && ranked[0].method != "rt")
    ranked.erase(std::remove_if(ranked.begin(), ranked.end(), [](const CostedMethod& c) { return c.method == "rt"; }),
                 ranked.end());
  return ScanMethodTimings::shared().choose(key, ranked, margin);
}

// One index's path for table t, on the device the index lives on. `after_ms(rows)`:
// every filter of the table applied to the rows it yields (as for any index scan), by
// the executor that runs the plan.
std::optional<plan::IndexScan> path_for(const BuiltScanIndex& index, const ScanFilter& f, AccessPolicy policy,
                                        const std::function<double(double)>& after_ms, double scan_ms,
                                        const std::string& only_method, double margin) {
  const rs::ScanEstimate est = index.index().estimate(f.expr);
  const plan::RtScanWork w = rt_scan_work(est, index.rows);
  const double after = after_ms(w.matches);
  std::vector<CostedMethod> costed;
  std::string costs;
  for (rs::ScanMethod am : index.index().methods()) {
    const RtScanMethod m = plan_method(am);
    if (policy == AccessPolicy::kNoRt && m == RtScanMethod::kRt) continue;
    if (!only_method.empty() && only_method != plan::rt_scan_method_name(m)) continue;
    const double ms = plan::rt_scan_cost_ms(index.device(), m, w) + after;
    costs += fmt::format("{}{} {:.3f} ms", costs.empty() ? "" : ", ", plan::rt_scan_method_name(m), ms);
    costed.push_back({plan::rt_scan_method_name(m), ms});
  }
  if (costed.empty()) return std::nullopt;
  const std::string key = timing_key(index, f.expr, est);
  const bool rt_is_sieve = est.slabs == 0 && est.residual_rows == 0;
  const MethodChoice choice = choose_method(costed, policy, !only_method.empty(), key, margin, rt_is_sieve);
  plan::IndexScan s;
  s.mode = "rt scan";
  s.candidates = uint64_t(w.matches);
  // A near-tie is costed at the lower estimate whichever of the two runs: trying the
  // runner-up must not turn the path against the scan it beat.
  s.cost_ms = std::numeric_limits<double>::infinity();
  for (const CostedMethod& c : costed)
    if (c.method == choice.method || choice.adaptive) s.cost_ms = std::min(s.cost_ms, c.model_ms);
  s.scan_cost_ms = scan_ms;
  s.scan_method = choice.method;
  s.method_costs = "methods: " + costs;
  s.method_note = choice.note;
  if (choice.adaptive) s.timing_key = key;
  return s;
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
                                              const std::string& only_method, double adaptive_margin,
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
    auto s = path_for(*index, *f, policy, after_ms, scan_ms, only_method, adaptive_margin);
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
