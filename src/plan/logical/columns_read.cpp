#include "plan/logical/columns_read.h"

#include <set>
#include <utility>

namespace raydb::plan {

void verify_columns_read(const LogicalQuery& q) {
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
    if (e->kind == ExprKind::kColumnRef && e->table_index >= 0 && size_t(e->table_index) < q.tables.size() &&
        seen.insert({e->table_index, e->column_index}).second) {
      const TablePtr& t = q.tables[size_t(e->table_index)].table;
      if (t && e->column_index >= 0 && size_t(e->column_index) < t->column_count())
        t->column(size_t(e->column_index)).verify();
    }
    for (const auto& c : e->children) push(c);
  }
}

}  // namespace raydb::plan
