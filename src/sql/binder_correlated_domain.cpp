// Correlated subqueries decorrelated over the outer key's domain. Where a semi join
// on the correlation key is not enough (NOT EXISTS whose correlation also has an
// inner <> outer condition, TPC-H Q21), the subquery is computed once per key value
// as a grouped derived table and LEFT JOINed to every distinct value of the outer key
// column, so the table has exactly one row per value the outer block can hold: the
// block inner-joins it on outer_key = k without losing or repeating a row, and the
// subquery becomes an expression over the row it found (NULL columns: no inner rows).
//
// EXISTS (... WHERE ik = ok AND ic <> oc AND rest): the inner rows of a key whose ic
// is not NULL have some value other than oc exactly when oc is not NULL and their
// min or max differs from oc (all equal to oc <=> min = max = oc). So per key
// min(ic), max(ic), and EXISTS = oc IS NOT NULL AND mn IS NOT NULL AND (mn <> oc OR
// mx <> oc); NOT EXISTS its negation (never unknown).
#include "common/error.h"
#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/unique_key_join.h"

namespace raydb::sql {

namespace {

AstPtr all_of(std::vector<AstPtr> terms) {
  AstPtr out;
  for (auto& t : terms) out = out ? binary("and", out, t) : t;
  return out;
}

[[noreturn]] void refuse(const AstExpr& e, const std::string& why) {
  fail(ErrorKind::kNotImplemented, "correlated subquery {} is not supported: {} (line {}, column {})",
       e.to_string().substr(0, 120), why, e.line, e.column);
}

}  // namespace

std::string Binder::join_over_domain(const AstPtr& outer_key, std::shared_ptr<SelectStatement> per_key,
                                     const std::string& what) {
  // The outer key: a column of one stored table of this block (stored columns hold no
  // NULL, so every outer row finds its key's row).
  int table = -1;
  if (outer_key->kind == AstKind::kColumn)
    for (size_t i = 0; i < from_tables_; i++) {
      const bool named = outer_key->qualifier.empty() || iequals(q_.tables[i].alias, outer_key->qualifier);
      if (named && shapes_[i].find_column(outer_key->name) >= 0) {
        if (table >= 0) refuse(*outer_key, "its outer column '" + outer_key->to_string() + "' is ambiguous");
        table = int(i);
      }
    }
  if (table < 0 || !shapes_[size_t(table)].is_stored())
    refuse(*outer_key, "the outer side of its correlation must be a column of a stored table, not '" +
                           outer_key->to_string() + "'");
  const AstExpr& at = *outer_key;
  auto domain = std::make_shared<SelectStatement>();
  domain->distinct = true;
  TableItem stored;
  // The keys the outer rows can hold (binder_key_reduction.cpp), else every value.
  stored.name = reduced_keys(*outer_key);
  domain->select.push_back({col("", stored.name.empty() ? outer_key->name : "k", at), "k"});
  if (stored.name.empty()) stored.name = q_.tables[size_t(table)].name;
  domain->from.push_back(stored);

  const std::string alias = "__domain_" + std::to_string(q_.tables.size());
  if (std::optional<TempTable> merged = domain_by_lookup(domain, stored.name, *per_key, alias, what)) {
    add_table(std::move(*merged), alias);
    domain_joins_.push_back(binary("=", outer_key, col(alias, "k", at)));
    return alias;
  }
  SelectStatement full;
  full.select.push_back({col("d", "k", at), "k"});
  for (size_t i = 1; i < per_key->select.size(); i++)
    full.select.push_back({col("g", per_key->select[i].alias, at), per_key->select[i].alias});
  TableItem d, g;
  d.subquery = domain;
  d.alias = "d";
  g.subquery = per_key;
  g.alias = "g";
  g.join = TableItem::Join::kLeft;
  g.on = binary("=", col("d", "k", at), col("g", "k", at));
  full.from = {d, g};
  add_table(materialize(full, alias, {}, what), alias);
  domain_joins_.push_back(binary("=", outer_key, col(alias, "k", at)));
  return alias;
}

// The domain's rows LEFT JOIN per_key built on the host (sql/unique_key_join.h) when the
// keys allow it: the domain is the key reduction's table itself when there is one
// (already distinct, so no block), per_key runs as one block; nullopt otherwise.
std::optional<TempTable> Binder::domain_by_lookup(const std::shared_ptr<SelectStatement>& domain,
                                                  const std::string& reduced, const SelectStatement& per_key,
                                                  const std::string& alias, const std::string& what) {
  const TempTable* keys = find_cte(reduced);
  std::optional<TempTable> ran;
  if (!keys || keys->columns() != 1) {
    ran = materialize(*domain, "d", {}, what);
    keys = &*ran;
  }
  const TempTable per = materialize(per_key, "g", {}, what);
  std::vector<std::string> names;
  for (auto& item : per_key.select) names.push_back(item.alias);
  return left_join_unique_keys(*keys, per, names, alias, what);
}

// SELECT ik AS k, min(ic) AS mn, max(ic) AS mx ... WHERE rest AND ik, ic NOT NULL GROUP BY ik
std::shared_ptr<SelectStatement> Binder::min_max_per_key(const SelectStatement& sub, std::vector<AstPtr> rest,
                                                         const AstPtr& inner_key, const AstPtr& inner_ne) const {
  auto per_key = std::make_shared<SelectStatement>();
  per_key->with = sub.with;
  per_key->from = sub.from;
  per_key->select.push_back({inner_key, "k"});
  per_key->select.push_back({call("min", inner_ne), "mn"});
  per_key->select.push_back({call("max", inner_ne), "mx"});
  per_key->group_by.push_back(inner_key);
  rest.push_back(not_null(inner_key));
  rest.push_back(not_null(inner_ne));
  per_key->where = all_of(rest);
  return per_key;
}

AstPtr Binder::exists_with_inequality_join(const AstPtr& e, std::vector<AstPtr> rest, const AstPtr& inner_key,
                                           const AstPtr& outer_key, const AstPtr& inner_ne, const AstPtr& outer_ne) {
  if (AstPtr r = key_reduction(inner_key, outer_key)) rest.push_back(r);
  auto per_key = min_max_per_key(*e->subquery, std::move(rest), inner_key, inner_ne);
  const std::string t = "__exists_" + std::to_string(q_.tables.size());
  // Names no query writes, so the block's unqualified names stay unambiguous.
  const std::string k = t + "_k", mn = t + "_mn", mx = t + "_mx";
  add_table(materialize(*per_key, t, {k, mn, mx}, "subquery " + e->to_string().substr(0, 60)), t);
  const AstExpr& at = *e;
  // One row per key with inner rows: no outer row repeats; one without finds none,
  // and EXISTS is false for it.
  domain_joins_.push_back(binary("=", outer_key, col(t, k, at)));
  AstPtr differs = binary("or", binary("<>", col(t, mn, at), outer_ne), binary("<>", col(t, mx, at), outer_ne));
  return all_of({not_null(outer_ne), differs});
}

AstPtr Binder::exists_with_inequality(const AstPtr& e, std::vector<AstPtr> rest, const AstPtr& inner_key,
                                      const AstPtr& outer_key, const AstPtr& inner_ne, const AstPtr& outer_ne) {
  if (AstPtr r = key_reduction(inner_key, outer_key)) rest.push_back(r);
  auto per_key = min_max_per_key(*e->subquery, std::move(rest), inner_key, inner_ne);
  const std::string t = join_over_domain(outer_key, per_key, "subquery " + e->to_string().substr(0, 60));
  const AstExpr& at = *e;
  AstPtr differs = binary("or", binary("<>", col(t, "mn", at), outer_ne), binary("<>", col(t, "mx", at), outer_ne));
  AstPtr exists = all_of({not_null(outer_ne), not_null(col(t, "mn", at)), differs});
  if (!e->negated) return exists;
  auto n = node(AstKind::kUnary, at);
  n->op = "not";
  n->children = {exists};
  return n;
}

AstPtr Binder::scalar_over_domain(const AstExpr& e, std::vector<AstPtr> rest, const AstPtr& inner_key,
                                  const AstPtr& outer_key) {
  const SelectStatement& sub = *e.subquery;
  if (AstPtr r = key_reduction(inner_key, outer_key)) rest.push_back(r);
  auto per_key = std::make_shared<SelectStatement>();
  per_key->with = sub.with;
  per_key->from = sub.from;
  per_key->select.push_back({inner_key, "k"});
  per_key->select.push_back({sub.select[0].expr, "v"});
  auto one = node(AstKind::kLiteral, e);
  one->value = Value::integer(1);
  one->text = "1";
  per_key->select.push_back({one, "p"});
  per_key->group_by.push_back(inner_key);
  per_key->where = all_of(rest);
  const std::string t = join_over_domain(outer_key, per_key, "subquery " + e.to_string().substr(0, 60));
  // A key without inner rows takes the subquery's value over no rows (COUNT: 0).
  auto empty = std::make_shared<SelectStatement>(sub);
  auto no = node(AstKind::kLiteral, e);
  no->value = Value::boolean(false);
  no->text = "false";
  empty->where = no;
  auto none = node(AstKind::kSubquery, e);
  none->subquery = empty;
  none->text = "(" + e.to_string() + " over no rows)";
  auto c = node(AstKind::kCase, e);
  auto absent = node(AstKind::kIsNull, e);
  absent->children = {col(t, "p", e)};
  c->children = {absent, none, col(t, "v", e)};
  c->has_else = true;
  return c;
}

}  // namespace raydb::sql
