#include "exec/index/access_path_chooser.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "common/expression_depth.h"
#include "exec/core/column_predicate.h"
#include "exec/index/index_access.h"
#include "exec/index/rt_scan_chooser.h"
#include "common/error.h"
#include "plan/physical/cost_model.h"

namespace raydb::exec {

using plan::ExecDevice;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

// Single-column index kinds the policy allows (RT scan indexes have their own chooser).
bool allowed(plan::IndexKind kind, AccessPolicy policy) {
  return kind != plan::IndexKind::kRtScan && !(policy == AccessPolicy::kNoRt && kind == plan::IndexKind::kRt);
}

// Estimated fraction of a table's rows that pass its filters: compiled column
// predicates by the share of [min, max] they cover, anything else 1/3.
double filter_fraction(const std::vector<ExprPtr>& filters, const plan::LogicalQuery& q) {
  double f = 1.0;
  for (auto& e : filters) {
    auto p = ColumnPredicate::compile(*e, q);
    f *= p ? std::clamp(p->coverage(), 0.0, 1.0) : 1.0 / 3;
  }
  return f;
}

// Whether a hash index can answer these stored-value ranges (as a bounded number of
// points; see scan_lookups).
long double point_count(const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  long double points = 0;
  for (auto& [lo, hi] : ranges) points += (long double)hi - (long double)lo + 1;
  return points;
}
bool hash_can_answer(const std::vector<std::pair<int64_t, int64_t>>& ranges) { return point_count(ranges) <= 4096; }

void column_refs(const plan::Expr& e, std::set<std::pair<int, int>>& out) {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  if (e.kind == ExprKind::kColumnRef) out.insert({e.table_index, e.column_index});
  for (auto& c : e.children) column_refs(*c, out);
}

// The costs of one plan's access paths on the device it runs on. The CPU keeps its
// single-thread formulas; the GPU ones follow the general CUDA path step by step
// (exec/cuda/general): what it reads and writes per row, and its lookup batches.
class PathCosts {
 public:
  PathCosts(const plan::LogicalQuery& q, ExecDevice dev) : q_(q), dev_(dev) {}
  bool on_gpu() const { return dev_ == ExecDevice::kGpu; }

  // Bytes per row the general CUDA path moves to filter table t's rows: the row id,
  // each filter column at its stored width (the column cache narrows it further, so
  // this is an upper bound), and per filter a flag byte and the compacted row id.
  double gpu_bytes_per_row(int t, const std::vector<ExprPtr>& filters) const {
    std::set<std::pair<int, int>> cols;
    for (auto& f : filters) column_refs(*f, cols);
    double b = 4 + 5.0 * double(filters.size());
    for (auto& [ti, ci] : cols)
      if (ti == t) b += q_.tables[size_t(ti)].table->column(size_t(ci)).type().physical_width();
    return b;
  }

  // Scanning (and filtering) `rows` rows of table t.
  double scan(int t, double rows, const std::vector<ExprPtr>& filters) const {
    if (dev_ == ExecDevice::kCpu) return plan::scan_cost_ms(uint64_t(rows), int(filters.size()));
    return plan::scan_cost_ms(ExecDevice::kGpu, uint64_t(rows), rows * gpu_bytes_per_row(t, filters),
                              int(filters.size()));
  }

  // One batch of lookups into an index of `kind` over `keys` keys.
  double lookups(plan::IndexKind kind, uint64_t keys, double n, bool ranges, double hits) const {
    if (dev_ == ExecDevice::kCpu) return plan::lookup_cost_ms(kind, keys, n);
    plan::LookupBatch b;
    b.lookups = std::max(1.0, n);
    b.ranges = ranges;
    b.hits_per_lookup = hits;
    return plan::lookup_cost_ms(kind, ExecDevice::kGpu, keys, b);
  }

  // An index scan of table t: the lookups, the candidates they return, and on the GPU
  // every filter of the table applied to the candidates (the CPU's constants include it).
  double index_scan(int t, const plan::IndexHandle& ix, double n, bool ranges, double candidates,
                    const std::vector<ExprPtr>& filters) const {
    if (dev_ == ExecDevice::kCpu) return plan::index_scan_cost_ms(ix.kind, ix.rows, n, candidates);
    return plan::index_step_overhead_ms(ExecDevice::kGpu) +
           lookups(ix.kind, ix.rows, n, ranges, candidates / std::max(1.0, n)) +
           plan::fetch_cost_ms(ExecDevice::kGpu, candidates) + scan(t, candidates, filters);
  }

  // A hash join whose build side costs `build_ms` to produce `kept` rows, probed by `probes` rows.
  double hash_join(double build_ms, double kept, double probes, double matches) const {
    if (dev_ == ExecDevice::kCpu) return build_ms + plan::hash_join_cost_ms(0, 0, kept, probes);
    // The general path evaluates the key (16-byte value + NULL flag per row), hashes it
    // and radix-sorts (hash, position) pairs: 8 passes reading and writing 12 bytes;
    // each probe is a binary search over the sorted hashes, like a sorted-array lookup.
    constexpr double kSortBytesPerRow = 17 + 8 + 8 * 2 * 12;
    return build_ms + plan::scan_cost_ms(ExecDevice::kGpu, uint64_t(kept), kept * kSortBytesPerRow, 1) +
           lookups(plan::IndexKind::kSorted, uint64_t(std::max(1.0, kept)), probes, false, 1) +
           plan::fetch_cost_ms(ExecDevice::kGpu, matches);
  }

  // An index join into build table t: one point lookup per probe, the matches, and the
  // build table's filters applied to them.
  double index_join(int t, const plan::IndexHandle& ix, double probes, double matches,
                    const std::vector<ExprPtr>& filters) const {
    if (dev_ == ExecDevice::kCpu) return plan::index_join_cost_ms(ix.kind, ix.rows, probes, matches);
    return plan::index_step_overhead_ms(ExecDevice::kGpu) +
           lookups(ix.kind, ix.rows, probes, false, matches / std::max(1.0, probes)) +
           plan::fetch_cost_ms(ExecDevice::kGpu, matches) + (filters.empty() ? 0 : scan(t, matches, filters));
  }

 private:
  const plan::LogicalQuery& q_;
  ExecDevice dev_;
};

// Of the indexes on one column, the one to use: the RT index when forced, else the
// kind with the cheapest lookups for a batch of `n` lookups (`points` of them when
// each range is split into points, as a hash index needs); the exact candidate count
// is the same for all of them, so only the lookup cost differs. Only the chosen one
// is built.
const IndexCandidate* pick_kind(const std::vector<const IndexCandidate*>& on_column, uint64_t keys, double n,
                                bool ranges, double points, bool points_ok, AccessPolicy policy,
                                const PathCosts& costs) {
  const IndexCandidate* best = nullptr;
  double best_cost = 0;
  for (auto* c : on_column) {
    if (c->kind == plan::IndexKind::kHash && !points_ok) continue;
    if (policy == AccessPolicy::kForceRt && c->kind == plan::IndexKind::kRt) return c;
    // The CPU compares one lookup of each kind (its constants are per lookup); the GPU
    // the whole batch, since its per-batch launch cost dominates small ones.
    const bool hash = c->kind == plan::IndexKind::kHash;
    double cost = costs.on_gpu() ? costs.lookups(c->kind, keys, hash ? points : n, hash ? false : ranges, 1)
                                 : costs.lookups(c->kind, keys, 1.0, false, 1);
    if (!best || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

std::string scan_mode(const plan::Expr& e, const std::vector<access::KeyRange>& lookups) {
  if (e.kind == ExprKind::kInList && !e.negated) return "in";
  bool points = std::all_of(lookups.begin(), lookups.end(), [](auto& r) { return r.lo == r.hi; });
  if (points) return lookups.size() == 1 ? "point" : "in";
  return "range";
}

// The best index scan of table t, or nullopt when scanning is cheaper (or no index applies).
std::optional<plan::IndexScan> choose_index_scan(const plan::PhysicalPlan& plan, int t,
                                                 const std::vector<IndexCandidate>& candidates, AccessPolicy policy,
                                                 const PathCosts& costs, bool force, const std::string& rt_scan_method,
                                                 double adaptive_margin, std::vector<std::string>& notes) {
  const plan::LogicalQuery& q = *plan.query;
  const auto& filters = plan.table_filters[size_t(t)];
  const Table& table = *q.tables[size_t(t)].table;
  const double scan_ms = costs.scan(t, double(table.row_count()), filters);
  std::optional<plan::IndexScan> best, best_rt;
  for (auto& f : filters) {
    auto pred = ColumnPredicate::compile(*f, q);
    if (!pred || pred->always_false()) continue;  // always false: the scan skips the table anyway
    std::vector<const IndexCandidate*> on_column;
    for (auto& c : candidates)
      if (c.table == t && &table.column(size_t(c.column)) == &pred->column() && allowed(c.kind, policy))
        on_column.push_back(&c);
    const auto& ranges = pred->ranges();
    const bool any_range = std::any_of(ranges.begin(), ranges.end(), [](auto& r) { return r.first != r.second; });
    if (const IndexCandidate* c = pick_kind(on_column, table.row_count(), double(ranges.size()), any_range,
                                            double(std::min<long double>(point_count(ranges), 1e18)),
                                            hash_can_answer(ranges), policy, costs)) {
      std::shared_ptr<const BuiltIndex> index = c->build();
      auto lookups = scan_lookups(*index, *pred);
      if (!lookups) continue;
      access::AggregateResult counts;
      index->index().aggregate(*lookups, counts);
      uint64_t n = 0;
      for (uint64_t k : counts.count) n += k;
      plan::IndexScan s;
      s.index = index;
      s.predicate = f;
      s.mode = scan_mode(*f, *lookups);
      s.candidates = n;
      s.cost_ms = costs.index_scan(t, *index, double(lookups->size()), s.mode == "range", double(n), filters);
      s.scan_cost_ms = scan_ms;
      if (!best || s.cost_ms < best->cost_ms) best = s;
      if (index->kind == plan::IndexKind::kRt && (!best_rt || s.cost_ms < best_rt->cost_ms)) best_rt = s;
    }
  }
  // An RT scan index answering several filters at once (a host index on the CPU, a
  // GPU-resident one on the CUDA backend). Returned only when it wins or is forced.
  // The rows it yields pass through every filter of the table, as for any index scan.
  const auto after_ms = [&](double rows) {
    if (!costs.on_gpu()) return plan::scan_cost_ms(uint64_t(rows), int(filters.size()));
    return plan::index_step_overhead_ms(ExecDevice::kGpu) + plan::fetch_cost_ms(ExecDevice::kGpu, rows) +
           costs.scan(t, rows, filters);
  };
  if (auto rs = choose_rt_scan(plan, t, candidates, policy, force, scan_ms,
                               best ? best->cost_ms : std::numeric_limits<double>::infinity(), after_ms,
                               rt_scan_method, adaptive_margin, notes)) {
    const bool forced_rt = policy == AccessPolicy::kForceRt && rs->scan_method == "rt";
    if (forced_rt || !force || !best || rs->cost_ms <= best->cost_ms) return rs;
  }
  if (policy == AccessPolicy::kForceRt && best_rt) return best_rt;
  if (best && (force || best->cost_ms < scan_ms)) return best;
  return std::nullopt;
}

}  // namespace

void choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexCandidate>& candidates,
                         const AccessOptions& options) {
  const plan::LogicalQuery& q = *plan.query;
  const AccessPolicy policy = options.policy;
  const PathCosts costs(q, options.device);
  const size_t nt = q.tables.size();
  plan.index_scans.assign(nt, std::nullopt);
  plan.access_notes.clear();
  for (auto& step : plan.joins) step.index_join.reset();
  if (candidates.empty() || plan.always_empty || options.paths == IndexPathsMode::kOff) return;
  const bool force = options.paths == IndexPathsMode::kForce;
  for (size_t t = 0; t < nt; t++)
    plan.index_scans[t] =
        choose_index_scan(plan, int(t), candidates, policy, costs, force, options.rt_scan_method,
                          options.rt_scan_adaptive_margin, plan.access_notes);

  // Rows the root streams, an upper bound for the probes of every join step.
  const int root = plan.root_table;
  const auto& root_scan = plan.index_scans[size_t(root)];
  const double root_rows =
      root_scan ? double(root_scan->candidates) * filter_fraction(plan.table_filters[size_t(root)], q) /
                      std::max(1e-9, filter_fraction(root_scan->covered.empty() ? std::vector<ExprPtr>{root_scan->predicate}
                                                                                           : root_scan->covered, q))
                : double(q.tables[size_t(root)].table->row_count()) * filter_fraction(plan.table_filters[size_t(root)], q);
  // The plan's cost with the paths chosen (root path plus every join step), for the
  // plan-level comparison with a fused pass below.
  double chosen_ms = root_scan ? root_scan->cost_ms
                               : costs.scan(root, double(q.tables[size_t(root)].table->row_count()),
                                            plan.table_filters[size_t(root)]);
  for (auto& step : plan.joins) {
    const int t = step.build_table;
    const Table& table = *q.tables[size_t(t)].table;
    const auto& filters = plan.table_filters[size_t(t)];
    const double kept = double(table.row_count()) * filter_fraction(filters, q);
    const auto& bscan = plan.index_scans[size_t(t)];
    const double build_scan_ms = bscan ? bscan->cost_ms : costs.scan(t, double(table.row_count()), filters);
    const double step_hash_ms = costs.hash_join(build_scan_ms, kept, root_rows, root_rows * filter_fraction(filters, q));
    chosen_ms += step_hash_ms;
    if (step.build_keys.size() != 1 || step.build_keys[0]->kind != ExprKind::kColumnRef) continue;
    const plan::Expr& bk = *step.build_keys[0];
    // DECIMAL keys of different scales never reach here (the planner keeps them as
    // residuals); a probe key must encode like the build column, which the executor
    // does with the hash join's key codec.
    std::optional<plan::IndexJoin> best, best_rt;
    std::vector<const IndexCandidate*> on_column;
    for (auto& c : candidates)
      if (c.table == t && c.column == bk.column_index && allowed(c.kind, policy)) on_column.push_back(&c);
    if (const IndexCandidate* c =
            pick_kind(on_column, table.row_count(), root_rows, false, root_rows, true, policy, costs)) {
      std::shared_ptr<const BuiltIndex> index = c->build();
      const double per_key = double(index->rows) / double(std::max<uint64_t>(1, index->distinct_keys));
      const double matches = root_rows * per_key;
      plan::IndexJoin j;
      j.index = index;
      j.est_probes = root_rows;
      j.cost_ms = costs.index_join(t, *index, root_rows, matches, filters);
      j.hash_cost_ms = costs.hash_join(build_scan_ms, kept, root_rows, matches * filter_fraction(filters, q));
      if (!best || j.cost_ms < best->cost_ms) best = j;
      if (index->kind == plan::IndexKind::kRt && (!best_rt || j.cost_ms < best_rt->cost_ms)) best_rt = j;
    }
    if (policy == AccessPolicy::kForceRt && best_rt) {
      step.index_join = best_rt;
    } else if (best && (force || best->cost_ms < best->hash_cost_ms)) {
      step.index_join = best;
    }
    // A build side probed through an index is not scanned.
    if (step.index_join) {
      chosen_ms += step.index_join->cost_ms - step_hash_ms;  // counted as a hash join above
      plan.index_scans[size_t(t)].reset();
    }
  }
  // GPU: index paths send the whole plan to the general path; when the star kernels
  // would run the plan without them in one fused pass, compare whole plans.
  const bool any_path = std::any_of(plan.index_scans.begin(), plan.index_scans.end(), [](auto& s) { return bool(s); }) ||
                        std::any_of(plan.joins.begin(), plan.joins.end(), [](auto& j) { return bool(j.index_join); });
  if (any_path && costs.on_gpu() && !force && policy == AccessPolicy::kCost && options.fused_pass_ms)
    if (const auto& fused = options.fused_pass_ms; fused && *fused < chosen_ms) {
      plan.index_scans.assign(nt, std::nullopt);
      for (auto& step : plan.joins) step.index_join.reset();
    }
}

}  // namespace raydb::exec
