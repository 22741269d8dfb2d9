#include "exec/index/access_path_chooser.h"

#include <algorithm>
#include <optional>

#include "exec/cpu/column_predicate.h"
#include "exec/index/index_access.h"
#include "plan/physical/cost_model.h"

namespace raydb::exec {

using plan::ExprKind;
using plan::ExprPtr;

namespace {

bool allowed(plan::IndexKind kind, AccessPolicy policy) {
  return !(policy == AccessPolicy::kNoRt && kind == plan::IndexKind::kRt);
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
bool hash_can_answer(const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  long double points = 0;
  for (auto& [lo, hi] : ranges) points += (long double)hi - (long double)lo + 1;
  return points <= 4096;
}

// Of the indexes on one column, the one to use: the RT index when forced, else the
// kind with the cheapest lookups (the exact candidate count is the same for all of
// them, so only the per-lookup cost differs). Only the chosen one is built.
const IndexCandidate* pick_kind(const std::vector<const IndexCandidate*>& on_column, uint64_t keys, bool points_ok,
                                AccessPolicy policy) {
  const IndexCandidate* best = nullptr;
  double best_cost = 0;
  for (auto* c : on_column) {
    if (c->kind == plan::IndexKind::kHash && !points_ok) continue;
    if (policy == AccessPolicy::kForceRt && c->kind == plan::IndexKind::kRt) return c;
    double cost = plan::lookup_cost_ms(c->kind, keys, 1.0);
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
                                                 const std::vector<IndexCandidate>& candidates, AccessPolicy policy) {
  const plan::LogicalQuery& q = *plan.query;
  const auto& filters = plan.table_filters[size_t(t)];
  const Table& table = *q.tables[size_t(t)].table;
  const double scan_ms = plan::scan_cost_ms(table.row_count(), int(filters.size()));
  std::optional<plan::IndexScan> best, best_rt;
  for (auto& f : filters) {
    auto pred = ColumnPredicate::compile(*f, q);
    if (!pred || pred->always_false()) continue;  // always false: the scan skips the table anyway
    std::vector<const IndexCandidate*> on_column;
    for (auto& c : candidates)
      if (c.table == t && &table.column(size_t(c.column)) == &pred->column() && allowed(c.kind, policy))
        on_column.push_back(&c);
    if (const IndexCandidate* c = pick_kind(on_column, table.row_count(), hash_can_answer(pred->ranges()), policy)) {
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
      s.cost_ms = plan::index_scan_cost_ms(index->kind, index->rows, double(lookups->size()), double(n));
      s.scan_cost_ms = scan_ms;
      if (!best || s.cost_ms < best->cost_ms) best = s;
      if (index->kind == plan::IndexKind::kRt && (!best_rt || s.cost_ms < best_rt->cost_ms)) best_rt = s;
    }
  }
  if (policy == AccessPolicy::kForceRt && best_rt) return best_rt;
  if (best && best->cost_ms < scan_ms) return best;
  return std::nullopt;
}

}  // namespace

void choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexCandidate>& candidates, AccessPolicy policy) {
  const plan::LogicalQuery& q = *plan.query;
  const size_t nt = q.tables.size();
  plan.index_scans.assign(nt, std::nullopt);
  if (candidates.empty() || plan.always_empty) return;
  for (size_t t = 0; t < nt; t++) plan.index_scans[t] = choose_index_scan(plan, int(t), candidates, policy);

  // Rows the root streams, an upper bound for the probes of every join step.
  const int root = plan.root_table;
  const auto& root_scan = plan.index_scans[size_t(root)];
  const double root_rows =
      root_scan ? double(root_scan->candidates) * filter_fraction(plan.table_filters[size_t(root)], q) /
                      std::max(1e-9, filter_fraction({root_scan->predicate}, q))
                : double(q.tables[size_t(root)].table->row_count()) * filter_fraction(plan.table_filters[size_t(root)], q);
  for (auto& step : plan.joins) {
    if (step.build_keys.size() != 1 || step.build_keys[0]->kind != ExprKind::kColumnRef) continue;
    const int t = step.build_table;
    const plan::Expr& bk = *step.build_keys[0];
    const Table& table = *q.tables[size_t(t)].table;
    // DECIMAL keys of different scales never reach here (the planner keeps them as
    // residuals); a probe key must encode like the build column, which the executor
    // does with the hash join's key codec.
    std::optional<plan::IndexJoin> best, best_rt;
    std::vector<const IndexCandidate*> on_column;
    for (auto& c : candidates)
      if (c.table == t && c.column == bk.column_index && allowed(c.kind, policy)) on_column.push_back(&c);
    const auto& filters = plan.table_filters[size_t(t)];
    const double kept = double(table.row_count()) * filter_fraction(filters, q);
    const auto& bscan = plan.index_scans[size_t(t)];
    const double build_scan_ms = bscan ? bscan->cost_ms : plan::scan_cost_ms(table.row_count(), int(filters.size()));
    const double hash_ms = build_scan_ms + plan::hash_join_cost_ms(0, 0, kept, root_rows);
    if (const IndexCandidate* c = pick_kind(on_column, table.row_count(), true, policy)) {
      std::shared_ptr<const BuiltIndex> index = c->build();
      const double per_key = double(index->rows) / double(std::max<uint64_t>(1, index->distinct_keys));
      plan::IndexJoin j;
      j.index = index;
      j.est_probes = root_rows;
      j.cost_ms = plan::index_join_cost_ms(index->kind, index->rows, root_rows, root_rows * per_key);
      j.hash_cost_ms = hash_ms;
      if (!best || j.cost_ms < best->cost_ms) best = j;
      if (index->kind == plan::IndexKind::kRt && (!best_rt || j.cost_ms < best_rt->cost_ms)) best_rt = j;
    }
    if (policy == AccessPolicy::kForceRt && best_rt) {
      step.index_join = best_rt;
    } else if (best && best->cost_ms < hash_ms) {
      step.index_join = best;
    }
    // A build side probed through an index is not scanned.
    if (step.index_join) plan.index_scans[size_t(t)].reset();
  }
}

}  // namespace raydb::exec
