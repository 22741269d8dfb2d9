#include "plan/logical/columns_read.h"

#include <set>
#include <utility>

#include "common/stage_times.h"

namespace raydb::plan {

namespace {

// Calls `f` once for every base column `q` refers to, and `g` (when given) for every
// expression node.
template <typename F, typename G = void (*)(const Expr&)>
void for_each_column_read(const LogicalQuery& q, F&& f, G&& g = [](const Expr&) {}) {
  std::vector<const Expr*> stack;  // iterative: expressions may be deep
  auto push = [&stack](const ExprPtr& e) {
    if (e) stack.push_back(e.get());
  };
  for (const auto& e : q.conjuncts) push(e);
  for (const auto& e : q.group_keys) push(e);
  for (const auto& a : q.aggregates) push(a.arg);
  push(q.having);
  for (const auto& e : q.select) push(e);
  for (const auto& o : q.order_by) push(o.expr);
  for (const auto& w : q.windows) {
    for (const auto& a : w.args) push(a);
    for (const auto& p : w.partition) push(p);
    for (const auto& o : w.order) push(o.expr);
  }
  std::set<std::pair<int, int>> seen;
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    g(*e);
    if (e->kind == ExprKind::kColumnRef && e->table_index >= 0 && size_t(e->table_index) < q.tables.size() &&
        seen.insert({e->table_index, e->column_index}).second) {
      const TablePtr& t = q.tables[size_t(e->table_index)].table;
      if (t && e->column_index >= 0 && size_t(e->column_index) < t->column_count())
        f(t->column(size_t(e->column_index)));
    }
    for (const auto& c : e->children) push(c);
  }
}

uint64_t stored_bytes(const Column& c) { return c.size() * uint64_t(c.type().physical_width()); }

}  // namespace

void verify_columns_read(const LogicalQuery& q, const std::function<bool(const Column&)>& skip) {
  for_each_column_read(q, [&skip](const Column& c) {
    if (!skip || !skip(c)) c.verify();
  });
}

bool query_touches_type(const LogicalQuery& q, TypeId column_type, TypeId expr_type) {
  bool found = false;
  for (const auto& a : q.aggregates) found = found || (expr_type != TypeId::kNull && a.type.id == expr_type);
  for_each_column_read(
      q, [&](const Column& c) { found = found || c.type().id == column_type; },
      [&](const Expr& e) { found = found || (expr_type != TypeId::kNull && e.type.id == expr_type); });
  return found;
}

uint64_t stored_bytes_read(const LogicalQuery& q) {
  uint64_t b = 0;
  for_each_column_read(q, [&b](const Column& c) { b += stored_bytes(c); });
  return b;
}

}  // namespace raydb::plan
