#include "exec/cuda/star_chain_filter.h"

#include <algorithm>

#include "exec/core/column_predicate.h"

namespace raydb::exec::cuda {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

// B's rows are scanned on the host while planning: only small tables.
constexpr uint64_t kMaxChainRows = uint64_t(1) << 20;

bool reads(const ExprPtr& e, int table) {
  if (!e) return false;
  if (e->kind == ExprKind::kColumnRef && e->table_index == table) return true;
  for (auto& c : e->children)
    if (reads(c, table)) return true;
  return false;
}

bool any_reads(const std::vector<ExprPtr>& es, int table) {
  for (auto& e : es)
    if (reads(e, table)) return true;
  return false;
}

// Whether anything but B's own filters and this step's build key reads table b.
bool read_elsewhere(const plan::PhysicalPlan& plan, const plan::JoinStep& step, int b) {
  const plan::LogicalQuery& q = *plan.query;
  if (any_reads(q.group_keys, b) || any_reads(q.select, b) || reads(q.having, b)) return true;
  for (auto& a : q.aggregates)
    if (reads(a.arg, b) || reads(a.order_stat.k_expr, b)) return true;
  for (auto& o : q.order_by)
    if (reads(o.expr, b)) return true;
  if (!q.windows.empty() || any_reads(plan.root_residuals, b)) return true;
  for (auto& s : plan.joins) {
    if (any_reads(s.probe_keys, b) || any_reads(s.residuals, b)) return true;
    if (&s != &step && any_reads(s.build_keys, b)) return true;
  }
  return false;
}

bool integer_key(const Column& c) {
  const TypeId t = c.type().id;
  return !c.has_nulls() && (t == TypeId::kInteger || t == TypeId::kBigint || t == TypeId::kDate);
}

}  // namespace

std::optional<StarFilter> chain_join_filter(const plan::PhysicalPlan& plan, const plan::JoinStep& step) {
  const plan::LogicalQuery& q = *plan.query;
  if (step.build_keys.size() != 1 || step.index_join) return std::nullopt;
  const Expr& pk = *step.probe_keys[0];
  const Expr& bk = *step.build_keys[0];
  const int b = step.build_table;
  if (pk.kind != ExprKind::kColumnRef || bk.kind != ExprKind::kColumnRef || bk.table_index != b) return std::nullopt;
  if (!(pk.type == bk.type)) return std::nullopt;
  const Table& bt = *q.tables[size_t(b)].table;
  const Table& dt = *q.tables[size_t(pk.table_index)].table;
  if (bt.row_count() >= kMaxChainRows || read_elsewhere(plan, step, b)) return std::nullopt;
  const ColumnPtr probe = dt.column_ptr(size_t(pk.column_index));
  const Column& key = bt.column(size_t(bk.column_index));
  if (!integer_key(*probe) || !integer_key(key)) return std::nullopt;
  std::vector<ColumnPredicate> preds;
  for (auto& f : plan.table_filters[size_t(b)]) {
    std::optional<ColumnPredicate> p = ColumnPredicate::compile(*f, q);
    if (!p || p->table_index() != b || p->column().has_nulls()) return std::nullopt;
    preds.push_back(std::move(*p));
  }
  std::vector<int64_t> keys;
  for (uint64_t r = 0; r < bt.row_count(); r++) {
    bool pass = true;
    for (auto& p : preds) pass = pass && p.test(p.column().get_int(r));
    if (pass) keys.push_back(key.get_int(r));
  }
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return std::nullopt;  // a D row would repeat
  StarFilter f;
  f.column = probe;
  for (int64_t k : keys) {
    if (!f.ranges.empty() && f.ranges.back().second + 1 == k)
      f.ranges.back().second = k;
    else
      f.ranges.push_back({k, k});
  }
  const ColumnStats& s = probe->stats();
  const double span = s.min <= s.max ? double(uint64_t(s.max) - uint64_t(s.min)) + 1 : 1;
  f.coverage = std::min(1.0, double(keys.size()) / span);
  return f;
}

}  // namespace raydb::exec::cuda
