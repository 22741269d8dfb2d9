#include "plan/physical/physical_planner.h"

#include <algorithm>
#include <bit>

#include "common/error.h"

namespace raydb::plan {

namespace {

bool is_join_key_type(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kDecimal:
    case TypeId::kVarchar:
    case TypeId::kDouble: return true;
    default: return false;
  }
}

// Join keys must hash and compare alike: same type family (and same scale for
// decimals, same kind for VARCHAR/DATE); INTEGER and BIGINT mix freely.
bool join_compatible(const Type& a, const Type& b) {
  auto fam = [](const Type& t) {
    if (t.id == TypeId::kInteger || t.id == TypeId::kBigint) return 0;
    return int(t.id);
  };
  if (!is_join_key_type(a) || !is_join_key_type(b)) return false;
  if (fam(a) != fam(b)) return false;
  if (a.id == TypeId::kDecimal && a.scale != b.scale) return false;
  return true;
}

// Fraction of rows a single-table filter keeps, as a rough prior. The executor
// replaces it with exact counts once build tables are filtered.
double guess_selectivity(const std::vector<ExprPtr>& filters) {
  double s = 1.0;
  for (auto& f : filters) s *= f->kind == ExprKind::kCompare && f->compare_op == CompareOp::kEq ? 0.1 : 0.33;
  return s;
}

}  // namespace

const char* backend_kind_name(BackendKind b) {
  switch (b) {
    case BackendKind::kCpu: return "cpu";
    case BackendKind::kCuda: return "cuda";
  }
  return "?";
}

PhysicalPlan plan_query(std::shared_ptr<const LogicalQuery> query, const PlannerOptions& options) {
  const LogicalQuery& q = *query;
  const int nt = int(q.tables.size());
  if (nt > 64) fail(ErrorKind::kNotImplemented, "a query may read at most 64 tables, this one reads {}", nt);
  PhysicalPlan p;
  p.query = query;
  p.backend = options.backend;
  p.table_filters.resize(size_t(nt));

  // 1. Classify conjuncts.
  struct Edge {
    int a, b;
    ExprPtr ka, kb;
  };
  std::vector<Edge> edges;
  std::vector<ExprPtr> multi;  // multi-table conjuncts that are not usable equi-join edges
  for (auto& c : q.conjuncts) {
    uint64_t used = tables_used(*c);
    int count = std::popcount(used);
    if (count == 0) {
      // Constant predicate: the executor evaluates it once; keep it as a root filter.
      p.root_residuals.push_back(c);
      continue;
    }
    if (count == 1) {
      p.table_filters[size_t(std::countr_zero(used))].push_back(c);
      continue;
    }
    if (count == 2 && c->kind == ExprKind::kCompare && c->compare_op == CompareOp::kEq) {
      uint64_t ul = tables_used(*c->children[0]), ur = tables_used(*c->children[1]);
      if (std::popcount(ul) == 1 && std::popcount(ur) == 1 && ul != ur &&
          join_compatible(c->children[0]->type, c->children[1]->type)) {
        edges.push_back({std::countr_zero(ul), std::countr_zero(ur), c->children[0], c->children[1]});
        continue;
      }
    }
    multi.push_back(c);
  }

  // 2. Probe root: the largest table (it streams once; everything else is built).
  int root = 0;
  for (int t = 1; t < nt; t++)
    if (q.tables[size_t(t)].table->row_count() > q.tables[size_t(root)].table->row_count()) root = t;
  p.root_table = root;

  // 3. Join order: repeatedly add the unbound table, connected to the bound set, with
  // the smallest estimated match fraction; unconnected tables join last as cross
  // products. All edges between the new table and bound tables become its keys.
  uint64_t bound = uint64_t(1) << root;
  std::vector<bool> edge_used(edges.size(), false);
  while (std::popcount(bound) < nt) {
    int best = -1;
    double best_sel = 2.0;
    bool best_connected = false;
    for (int t = 0; t < nt; t++) {
      if (bound >> t & 1) continue;
      bool connected = false;
      for (auto& e : edges)
        if ((e.a == t && (bound >> e.b & 1)) || (e.b == t && (bound >> e.a & 1))) connected = true;
      double sel = guess_selectivity(p.table_filters[size_t(t)]);
      if ((connected && !best_connected) || (connected == best_connected && sel < best_sel)) {
        best = t;
        best_sel = sel;
        best_connected = connected;
      }
    }
    JoinStep step;
    step.build_table = best;
    step.est_selectivity = best_sel;
    for (size_t i = 0; i < edges.size(); i++) {
      auto& e = edges[i];
      if (edge_used[i]) continue;
      if (e.a == best && (bound >> e.b & 1)) {
        step.build_keys.push_back(e.ka);
        step.probe_keys.push_back(e.kb);
        step.depends_on |= uint64_t(1) << e.b;
        edge_used[i] = true;
      } else if (e.b == best && (bound >> e.a & 1)) {
        step.build_keys.push_back(e.kb);
        step.probe_keys.push_back(e.ka);
        step.depends_on |= uint64_t(1) << e.a;
        edge_used[i] = true;
      }
    }
    bound |= uint64_t(1) << best;
    p.joins.push_back(std::move(step));
  }
  // Edges left unused (a second edge between tables already joined through another
  // path, e.g. a cycle) and other multi-table conjuncts are residuals, placed at the
  // first step after which all their tables are bound.
  for (size_t i = 0; i < edges.size(); i++)
    if (!edge_used[i])
      multi.push_back(Expr::compare(CompareOp::kEq, edges[i].ka, edges[i].kb));
  for (auto& c : multi) {
    uint64_t used = tables_used(*c);
    uint64_t b = uint64_t(1) << root;
    bool placed = false;
    for (auto& step : p.joins) {
      b |= uint64_t(1) << step.build_table;
      if ((used & ~b) == 0) {
        step.residuals.push_back(c);
        placed = true;
        break;
      }
    }
    if (!placed) fail(ErrorKind::kInternal, "could not place conjunct {}", c->to_string());
  }
  return p;
}

bool PhysicalPlan::has_index_paths() const {
  for (auto& s : index_scans)
    if (s) return true;
  for (auto& j : joins)
    if (j.index_join) return true;
  return false;
}

void PhysicalPlan::clear_index_paths() {
  index_scans.assign(index_scans.size(), std::nullopt);
  for (auto& step : joins) step.index_join.reset();
}

namespace {

// EXPLAIN's line for an RT scan path, then the index's own plan (groups, sieving
// vectors, refine slabs), indented.
std::string rt_scan_line(const IndexScan& ix, const std::string& alias, uint64_t rows, const char* role) {
  std::string line = fmt::format("{}rt scan {} via {} ({}, {}; ~{} of {} rows; cost {:.3f} ms vs scan {:.3f} ms; {}{})",
                                 std::string_view(role) == "scan" ? "" : std::string(role) + " ", alias,
                                 ix.index->name, ix.index->describe(), ix.scan_method, ix.candidates, rows, ix.cost_ms,
                                 ix.scan_cost_ms, ix.method_costs,
                                 ix.method_note.empty()
                                     ? std::string()
                                     : fmt::format("; method {} ({})", ix.scan_method, ix.method_note));
  for (auto& c : ix.covered) line += "\n    index answers " + c->to_string();
  size_t start = 0;
  while (start < ix.detail.size()) {
    size_t end = ix.detail.find('\n', start);
    if (end == std::string::npos) end = ix.detail.size();
    line += "\n      " + ix.detail.substr(start, end - start);
    start = end + 1;
  }
  return line;
}

}  // namespace

std::string PhysicalPlan::explain() const {
  const LogicalQuery& q = *query;
  std::string s = fmt::format("backend: {}", backend_kind_name(backend));
  if (analysis) s += fmt::format(" ({})", analysis->describe());
  s += "\n";
  for (auto& r : rejected_backends) s += "  not " + r + "\n";
  if (view_scan) {
    const std::string cost = view_scan->cost_ms >= 0
                                 ? fmt::format("cost {:.3f} ms vs star path {:.3f} ms", view_scan->cost_ms,
                                               view_scan->star_cost_ms)
                                 : fmt::format("views not calibrated here; star path {:.3f} ms", view_scan->star_cost_ms);
    s += fmt::format("rt view {} ({}{})\n", view_scan->view->name, view_scan->forced ? "forced by --backend rt; " : "",
                     cost);
    s += "    " + view_scan->detail + "\n";
  }
  for (auto& r : rejected_views) s += "  not rt view " + r + "\n";
  if (always_empty) s += "empty: a constant predicate is false\n";
  auto table_line = [&](int t, const char* role) {
    std::string line;
    const IndexScan* ix = size_t(t) < index_scans.size() && index_scans[size_t(t)] ? &*index_scans[size_t(t)] : nullptr;
    if (ix && ix->index->kind == IndexKind::kRtScan)
      line = rt_scan_line(*ix, q.tables[size_t(t)].alias, q.tables[size_t(t)].table->row_count(), role);
    else if (ix)
      line = fmt::format("{}index scan {} via {} ({}, {}; {} of {} rows; cost {:.3f} ms vs scan {:.3f} ms)",
                         std::string_view(role) == "scan" ? "" : std::string(role) + " ", q.tables[size_t(t)].alias,
                         ix->index->name, ix->index->describe(), ix->mode, ix->candidates,
                         q.tables[size_t(t)].table->row_count(), ix->cost_ms, ix->scan_cost_ms);
    else
      line = fmt::format("{} {} ({} rows)", role, q.tables[size_t(t)].alias, q.tables[size_t(t)].table->row_count());
    for (auto& f : table_filters[size_t(t)]) line += "\n    filter " + f->to_string();
    return line + "\n";
  };
  for (auto& n : access_notes) s += "  note: " + n + "\n";
  // A view replaces the scans and joins (its line above says what it does instead).
  if (!view_scan) s += table_line(root_table, "scan");
  if (!view_scan)
    for (auto& c : root_residuals) s += "    filter " + c->to_string() + "\n";
  for (auto& j : view_scan ? std::vector<JoinStep>{} : joins) {
    if (j.index_join) {
      const IndexJoin& ij = *j.index_join;
      s += fmt::format("  index join {} via {} ({}; ~{:.0f} probes; cost {:.3f} ms vs hash join {:.3f} ms)\n",
                       q.tables[size_t(j.build_table)].alias, ij.index->name, ij.index->describe(),
                       ij.est_probes, ij.cost_ms, ij.hash_cost_ms);
      for (auto& f : table_filters[size_t(j.build_table)]) s += "    filter " + f->to_string() + "\n";
    } else {
      s += "  " + table_line(j.build_table, "join");
    }
    for (size_t k = 0; k < j.build_keys.size(); k++)
      s += fmt::format("    on {} = {}\n", j.probe_keys[k]->to_string(), j.build_keys[k]->to_string());
    if (j.build_keys.empty()) s += "    cross product\n";
    for (auto& r : j.residuals) s += "    residual " + r->to_string() + "\n";
  }
  if (q.is_aggregate) {
    s += "aggregate";
    if (!q.group_keys.empty()) {
      s += " by";
      for (auto& g : q.group_keys) s += " " + g->to_string();
    }
    for (auto& a : q.aggregates) s += "; " + a.name;
    s += "\n";
    if (q.having) s += "having " + q.having->to_string() + "\n";
  }
  s += q.distinct ? "project distinct" : "project";
  for (auto& e : q.select) s += " " + e->to_string();
  s += "\n";
  if (!q.order_by.empty()) {
    s += "order by";
    for (auto& o : q.order_by) s += " " + o.expr->to_string() + (o.descending ? " desc" : "") +
                                  (o.default_nulls() ? "" : o.nulls_first ? " nulls first" : " nulls last");
    s += "\n";
  }
  if (q.limit >= 0 || q.offset > 0) s += fmt::format("limit {} offset {}\n", q.limit, q.offset);
  return s;
}

}  // namespace raydb::plan
