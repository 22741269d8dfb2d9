#include "plan/logical/logical_query.h"

#include <fmt/format.h>

namespace raydb::plan {

std::string LogicalQuery::to_string() const {
  std::string s = "FROM";
  for (size_t i = 0; i < tables.size(); i++) s += fmt::format(" {}[{}]", tables[i].alias, i);
  s += "\n";
  for (auto& c : conjuncts) s += "  WHERE " + c->to_string() + "\n";
  if (is_aggregate) {
    s += "  GROUP BY";
    for (auto& g : group_keys) s += " " + g->to_string();
    s += "\n  AGGREGATES";
    for (auto& a : aggregates) s += " " + a.name;
    s += "\n";
    if (having) s += "  HAVING " + having->to_string() + "\n";
  }
  for (size_t i = 0; i < windows.size(); i++) s += fmt::format("  WINDOW#{} {}\n", i, windows[i].name);
  s += distinct ? "  SELECT DISTINCT" : "  SELECT";
  for (auto& e : select) s += " " + e->to_string();
  s += "\n";
  if (!order_by.empty()) {
    s += "  ORDER BY";
    for (auto& o : order_by) s += " " + o.expr->to_string() + (o.descending ? " DESC" : "") +
                                (o.default_nulls() ? "" : o.nulls_first ? " NULLS FIRST" : " NULLS LAST");
    s += "\n";
  }
  if (limit >= 0 || offset > 0) s += fmt::format("  LIMIT {} OFFSET {}\n", limit, offset);
  return s;
}

namespace {

bool same_ptr_expr(const ExprPtr& a, const ExprPtr& b) { return a == b || (a && b && same_expr(*a, *b)); }

bool same_exprs(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!same_ptr_expr(a[i], b[i])) return false;
  return true;
}

bool same_aggregate(const AggregateExpr& a, const AggregateExpr& b) {
  const OrderStatSpec &x = a.order_stat, &y = b.order_stat;
  return a.func == b.func && a.distinct == b.distinct && a.type == b.type && same_ptr_expr(a.arg, b.arg) &&
         x.kind == y.kind && x.q_integral == y.q_integral && x.q_scaling == y.q_scaling && x.k == y.k &&
         same_ptr_expr(x.k_expr, y.k_expr);
}

}  // namespace

bool same_query(const LogicalQuery& a, const LogicalQuery& b) {
  if (!a.windows.empty() || !b.windows.empty()) return false;
  if (a.tables.size() != b.tables.size() || a.is_aggregate != b.is_aggregate || a.distinct != b.distinct ||
      a.limit != b.limit || a.offset != b.offset || a.output_names != b.output_names ||
      a.aggregates.size() != b.aggregates.size() || a.order_by.size() != b.order_by.size())
    return false;
  for (size_t i = 0; i < a.tables.size(); i++)
    if (!a.tables[i].table || a.tables[i].table != b.tables[i].table) return false;
  for (size_t i = 0; i < a.aggregates.size(); i++)
    if (!same_aggregate(a.aggregates[i], b.aggregates[i])) return false;
  for (size_t i = 0; i < a.order_by.size(); i++) {
    const OrderItem &x = a.order_by[i], &y = b.order_by[i];
    if (x.descending != y.descending || x.nulls_first != y.nulls_first || !same_ptr_expr(x.expr, y.expr)) return false;
  }
  return same_exprs(a.conjuncts, b.conjuncts) && same_exprs(a.group_keys, b.group_keys) &&
         same_ptr_expr(a.having, b.having) && same_exprs(a.select, b.select);
}

}  // namespace raydb::plan
