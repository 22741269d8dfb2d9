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

}  // namespace raydb::plan
