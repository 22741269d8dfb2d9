// Key reduction of decorrelated subqueries (the "magic set" step of unnesting, as
// DuckDB's delim join and Umbra do it): a subquery decorrelated into a grouped derived
// table or a set of distinct keys is otherwise computed over every key of its inner
// table, though the outer block only asks for the keys its own rows hold. When the
// outer key is a column of a stored FROM table that conjuncts of WHERE filter on
// their own, the inner rows are limited to the keys those rows hold:
//   inner_key IN (SELECT outer_col FROM table AS alias WHERE <those conjuncts>).
// Exact: an outer row passing WHERE passes each of its conjuncts, so its key is in the
// set and the derived table's row (or the membership) for that key is unchanged; keys
// outside the set belong to no row that passes WHERE.
#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/binder_correlation.h"

namespace raydb::sql {

void Binder::set_where_terms(const AstPtr& where) {
  where_terms_.clear();
  split_and(where, where_terms_);
}

// The FROM table (index) of this block a column reference names, or -1 when it names
// none of them or several.
int Binder::from_table_of(const AstExpr& c) const {
  int table = -1;
  for (size_t i = 0; i < from_tables_; i++) {
    const bool named = c.qualifier.empty() || iequals(q_.tables[i].alias, c.qualifier);
    if (named && shapes_[i].find_column(c.name) >= 0) {
      if (table >= 0) return -1;
      table = int(i);
    }
  }
  return table;
}

// Whether e reads columns of FROM table t only (at least one), without aggregates and
// without subqueries that read this block's columns.
bool Binder::reads_only_table(const AstExpr& e, int t, bool& any) const {
  if (e.kind == AstKind::kColumn) {
    if (from_table_of(e) != t) return false;
    any = true;
  }
  if (e.kind == AstKind::kStar) return false;
  if (e.kind == AstKind::kFunction && contains_aggregate(e)) return false;
  if (e.subquery && reads_outer_columns(*e.subquery)) return false;
  for (auto& c : e.children)
    if (!reads_only_table(*c, t, any)) return false;
  return true;
}

AstPtr Binder::key_reduction(const AstPtr& inner_key, const AstPtr& outer_key, const SelectStatement& sub) const {
  if (outer_key->kind != AstKind::kColumn) return nullptr;
  const int t = from_table_of(*outer_key);
  if (t < 0 || stored_from_.size() <= size_t(t) || stored_from_[size_t(t)].empty()) return nullptr;
  const std::string& name = stored_from_[size_t(t)];
  for (auto& w : sub.with)  // the name would mean the subquery's WITH query there
    if (iequals(w.name, name)) return nullptr;
  std::vector<AstPtr> kept;
  for (auto& term : where_terms_) {
    bool any = false;
    if (reads_only_table(*term, t, any) && any) kept.push_back(term);
  }
  if (kept.empty()) return nullptr;
  const AstExpr& at = *outer_key;
  auto keys = std::make_shared<SelectStatement>();
  TableItem item;
  item.name = name;
  item.alias = q_.tables[size_t(t)].alias;
  keys->from.push_back(item);
  auto key = std::make_shared<AstExpr>(*outer_key);
  key->qualifier = item.alias;
  keys->select.push_back({key, ""});
  AstPtr where;
  for (auto& k : kept) where = where ? binary("and", where, k) : k;
  keys->where = where;
  auto in = node(AstKind::kInList, at);
  in->children = {inner_key};
  in->subquery = keys;
  in->text = "(SELECT " + key->to_string() + " FROM " + name + " WHERE ...)";
  return in;
}

}  // namespace raydb::sql
