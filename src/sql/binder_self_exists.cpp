// [NOT] EXISTS over the outer row's own table, correlated on a key and one inner <>
// outer column (TPC-H Q21: another supplier's line in the same order):
//
//   FROM T o ... WHERE <terms> AND [NOT] EXISTS (SELECT * FROM T i WHERE i.k = o.k AND
//                                                 i.c <> o.c AND <rest>)
//
// When every conjunct of <rest> (read on o instead of i) is one of the outer block's
// WHERE terms, an outer row that passes WHERE is itself one of the inner rows of its
// key (same table, same key, <rest> holds for it), so with S the distinct non-NULL c
// of key k's inner rows, o.c is in S whenever it is not NULL, and "some inner row has
// c <> o.c" is |S| >= 2, i.e. min(c) <> max(c) over the key. The EXISTS becomes the
// semi join `o.k IN (SELECT k FROM T WHERE <rest> GROUP BY k HAVING min(c) <> max(c))`
// (with o.k, o.c IS NOT NULL unless their columns hold no NULL; NOT EXISTS its
// negation, never unknown): a key set the executors test per row, on the star kernels
// too, instead of a per-key table joined with a condition across tables. Only for a
// conjunct of WHERE: rows that fail another conjunct are dropped either way.
#include <algorithm>

#include "sql/ast_nodes.h"
#include "sql/binder.h"

namespace raydb::sql {

namespace {

bool has_subquery(const AstExpr& e) {
  if (e.subquery) return true;
  for (auto& c : e.children)
    if (has_subquery(*c)) return true;
  return false;
}

}  // namespace

// e with its columns qualified by `alias`: those qualified `from` (empty: none) and the
// unqualified ones `owns` says are its table's.
template <typename Owns>
AstPtr requalified(const AstPtr& e, const std::string& from, const std::string& alias, Owns&& owns) {
  auto out = std::make_shared<AstExpr>(*e);
  if (out->kind == AstKind::kColumn) {
    if ((!from.empty() && iequals(out->qualifier, from)) || (out->qualifier.empty() && owns(*out)))
      out->qualifier = alias;
    return out;
  }
  for (auto& c : out->children) c = requalified(c, from, alias, owns);
  return out;
}

AstPtr Binder::exists_on_own_rows(const AstPtr& e, const std::vector<AstPtr>& rest, const AstPtr& inner_key,
                                  const AstPtr& outer_key, const AstPtr& inner_ne, const AstPtr& outer_ne) {
  const SelectStatement& sub = *e->subquery;
  if (sub.from.size() != 1 || !sub.group_by.empty() || sub.having || sub.distinct) return nullptr;
  const TableItem& item = sub.from[0];
  if (item.subquery || item.function || item.on || find_cte(item.name) || (views_ && views_(item.name)))
    return nullptr;
  for (auto& w : sub.with)
    if (iequals(w.name, item.name)) return nullptr;  // the subquery's own WITH query, not the table
  for (const AstPtr* k : {&inner_key, &outer_key, &inner_ne, &outer_ne})
    if ((*k)->kind != AstKind::kColumn) return nullptr;
  const int t = from_table_of(*outer_key);
  if (t < 0 || from_table_of(*outer_ne) != t || size_t(t) >= stored_from_.size() || stored_from_[size_t(t)].empty())
    return nullptr;
  const TablePtr inner = resolve_(item.name), outer = resolve_(stored_from_[size_t(t)]);
  if (!inner || inner != outer) return nullptr;
  const std::string ialias = item.alias.empty() ? item.name : item.alias;
  const std::string oalias = q_.tables[size_t(t)].alias;
  for (auto [i, o] : {std::pair{&inner_key, &outer_key}, std::pair{&inner_ne, &outer_ne}}) {
    const bool inner_side = (*i)->qualifier.empty() || iequals((*i)->qualifier, ialias);
    if (!inner_side || !iequals((*i)->name, (*o)->name)) return nullptr;
  }
  // Every conjunct of rest, read on the outer row, is a WHERE term of this block.
  std::vector<std::string> terms;
  for (const AstPtr& w : where_terms_)
    terms.push_back(requalified(w, "", oalias, [&](const AstExpr& c) { return from_table_of(c) == t; })->to_string());
  for (const AstPtr& r : rest) {
    if (has_subquery(*r)) return nullptr;
    const std::string on_outer =
        requalified(r, ialias, oalias, [&](const AstExpr& c) { return inner->find_column(c.name) >= 0; })->to_string();
    if (std::find(terms.begin(), terms.end(), on_outer) == terms.end()) return nullptr;
  }

  std::vector<AstPtr> where = rest;
  if (AstPtr r = key_reduction(inner_key, outer_key)) where.push_back(r);
  where.push_back(not_null(inner_key));
  where.push_back(not_null(inner_ne));
  auto keys = std::make_shared<SelectStatement>();
  keys->with = sub.with;
  keys->from = sub.from;
  keys->select.push_back({inner_key, "k"});
  keys->group_by.push_back(inner_key);
  keys->having = binary("<>", call("min", inner_ne), call("max", inner_ne));
  for (auto& w : where) keys->where = keys->where ? binary("and", keys->where, w) : w;
  auto in = node(AstKind::kInList, *e);
  in->children = {outer_key};
  in->subquery = keys;
  in->text = e->text;
  // IS NOT NULL only where the stored column can hold a NULL.
  AstPtr exists = in;
  for (const AstPtr* o : {&outer_ne, &outer_key}) {
    const int c = outer->find_column((*o)->name);
    if (c < 0 || outer->column(size_t(c)).has_nulls()) exists = binary("and", not_null(*o), exists);
  }
  if (!e->negated) return exists;
  auto n = node(AstKind::kUnary, *e);
  n->op = "not";
  n->children = {exists};
  return n;
}

}  // namespace raydb::sql
