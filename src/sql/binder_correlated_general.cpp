// Correlated subqueries whose correlation is not a set of inner = outer keys, e.g.
// (SELECT count(*) FROM t1 AS x WHERE x.b < t1.b) or EXISTS (... WHERE x.c > t1.c AND
// x.d < t1.d), anywhere in WHERE or the select list. A scalar aggregate subquery or an
// EXISTS depends only on the values of the outer columns it reads, so it is computed
// once per distinct tuple of them, as one grouped join (never row by row):
//
//   SELECT __z1, __n1, ..., agg(CASE WHEN <its WHERE> THEN arg END) AS __v
//     FROM (SELECT DISTINCT zero_if_null(o1) AS __z1, (o1 IS NULL) AS __n1, o1 AS __k1, ...
//             FROM <outer table>) AS __d, <its FROM>
//    GROUP BY __z1, __n1, __k1, ...
//
// with the outer columns read from __d. An aggregate then sees exactly the inner rows
// its WHERE keeps for that tuple (COUNT over none is 0, the others NULL, as over no
// rows); EXISTS is count(CASE WHEN <WHERE> THEN 1 END) > 0. The table has one row per
// tuple and joins the block on zero_if_null(o_i) = __z_i AND (o_i IS NULL) = __n_i, a
// NULL-safe equality, so every outer row, NULLs included, finds exactly its own row.
// An empty inner FROM gives no rows at all; then the subquery is its value over no rows.
#include <functional>

#include "common/error.h"
#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/binder_correlation.h"

namespace raydb::sql {

namespace {

AstPtr literal(Value v, const std::string& text, const AstExpr& at) {
  auto e = node(AstKind::kLiteral, at);
  e->value = std::move(v);
  e->text = text;
  return e;
}

AstPtr case_when(AstPtr when, AstPtr then, AstPtr otherwise) {
  auto e = node(AstKind::kCase, *when);
  e->children = {std::move(when), std::move(then)};
  if (otherwise) {
    e->children.push_back(std::move(otherwise));
    e->has_else = true;
  }
  return e;
}

AstPtr is_null(AstPtr x) {
  auto e = node(AstKind::kIsNull, *x);
  e->children = {std::move(x)};
  return e;
}

// A non-NULL value of type t, standing in for NULL in the NULL-safe join key.
AstPtr zero_of(const Type& t, const AstExpr& at) {
  switch (t.id) {
    case TypeId::kBoolean: return literal(Value::boolean(false), "false", at);
    case TypeId::kInteger: return literal(Value::integer(0), "0", at);
    case TypeId::kBigint: return literal(Value::bigint(0), "0", at);
    case TypeId::kHugeint: return literal(Value::hugeint(0), "0", at);
    case TypeId::kDouble: return literal(Value::float64(0), "0.0", at);
    case TypeId::kDecimal: return literal(Value::decimal(0, t.precision, t.scale), "0", at);
    case TypeId::kDate: return literal(Value::date(0), "DATE '1970-01-01'", at);
    case TypeId::kVarchar: return literal(Value::varchar(""), "''", at);
    case TypeId::kNull: break;
  }
  return nullptr;
}

[[noreturn]] void refuse(const AstExpr& e, const std::string& why) {
  fail(ErrorKind::kNotImplemented, "correlated subquery {} is not supported: {} (line {}, column {})",
       e.to_string().substr(0, 120), why, e.line, e.column);
}

bool is_aggregate_call(const AstExpr& e) {
  if (e.kind != AstKind::kFunction || e.over || !contains_aggregate(e)) return false;
  for (auto& c : e.children)
    if (contains_aggregate(*c)) return false;
  return true;
}

}  // namespace

// The outer columns a subquery reads, as keys of the domain table.
struct Binder::OuterTuple {
  int table = -1;                 // the outer block's FROM item they all belong to
  std::vector<AstPtr> columns;    // as written in the subquery, one per distinct column
  std::vector<int> column_index;  // in shapes_[table]
};

// Copies e with each outer column reference replaced by replace(i) for its key i
// (collecting the keys into `tuple`), not looking into nested subqueries.
AstPtr Binder::replace_outer(const AstPtr& e, const Correlation& c, OuterTuple& tuple,
                             const std::function<AstPtr(size_t, const AstExpr&)>& replace) const {
  if (!e) return e;
  if (e->kind == AstKind::kColumn && c.side(*e) == Side::kOuter) {
    int table = -1, column = -1;
    for (size_t i = 0; i < from_tables_; i++) {
      const bool named = e->qualifier.empty() || iequals(q_.tables[i].alias, e->qualifier);
      int at = named ? shapes_[i].find_column(e->name) : -1;
      // An item inside an outer join's rows (TempTable::qualifiers).
      if (at < 0 && !e->qualifier.empty() && shapes_[i].has_qualifier(e->qualifier))
        at = shapes_[i].find_qualified(e->qualifier, e->name);
      if (at >= 0) {
        if (table >= 0) refuse(*e, "its outer column '" + e->to_string() + "' is ambiguous");
        table = int(i), column = at;
      }
    }
    if (table < 0) refuse(*e, "it reads '" + e->to_string() + "', which is not a column of the block's FROM");
    if (tuple.table >= 0 && tuple.table != table) refuse(*e, "it reads columns of two outer tables");
    tuple.table = table;
    size_t key = 0;
    while (key < tuple.column_index.size() && tuple.column_index[key] != column) key++;
    if (key == tuple.column_index.size()) {
      tuple.columns.push_back(e);
      tuple.column_index.push_back(column);
    }
    return replace(key, *e);
  }
  std::shared_ptr<AstExpr> copy;
  for (size_t i = 0; i < e->children.size(); i++) {
    AstPtr n = replace_outer(e->children[i], c, tuple, replace);
    if (n == e->children[i]) continue;
    if (!copy) copy = std::make_shared<AstExpr>(*e);
    copy->children[i] = n;
  }
  return copy ? copy : e;
}

AstPtr Binder::decorrelate_general(const AstPtr& e, const Correlation& c) {
  const SelectStatement& sub = *e->subquery;
  const bool exists = e->op == "exists";
  for (auto& t : sub.from)
    if (c.reads_outer(t.on)) refuse(*e, "its JOIN ... ON reads outer columns");
  if (!sub.group_by.empty() || sub.having || sub.limit || sub.offset || sub.set_op != SetOp::kNone)
    refuse(*e, "a subquery with GROUP BY, HAVING, LIMIT, OFFSET or a set operation");
  bool aggregate_only = true;
  for (auto& item : sub.select) aggregate_only = aggregate_only && contains_aggregate(*item.expr);
  if (exists && aggregate_only)  // an aggregate without GROUP BY always gives one row
    return literal(Value::boolean(!e->negated), e->negated ? "false" : "true", *e);
  if (!exists && (sub.select.size() != 1 || sub.distinct || !aggregate_only))
    refuse(*e, "a scalar subquery is decorrelated when it selects one aggregate, without DISTINCT");
  std::vector<std::string> outer_aliases, shadow;
  for (auto& t : q_.tables) outer_aliases.push_back(t.alias);
  for (auto& [alias, t] : c.inner) shadow.push_back(alias);
  for (const AstPtr& x : {sub.where, exists ? AstPtr() : sub.select[0].expr})
    if (x && nested_outer_ref(*x, outer_aliases, shadow, 0))
      refuse(*e, "a subquery inside it reads the outer block's columns (correlation nested two levels deep)");

  // The subquery's WHERE and value with outer columns read from the domain (__d.__kI).
  OuterTuple tuple;
  auto from_domain = [&](size_t key, const AstExpr& at) { return col("__d", "__k" + std::to_string(key + 1), at); };
  const AstPtr cond = replace_outer(sub.where, c, tuple, from_domain);
  AstPtr value = exists ? AstPtr() : replace_outer(sub.select[0].expr, c, tuple, from_domain);
  if (tuple.table < 0) refuse(*e, "it reads no outer column");
  if (size_t(tuple.table) >= stored_from_.size() || stored_from_[size_t(tuple.table)].empty())
    refuse(*e, "its outer columns must come from a stored table of the block, not from '" +
                   q_.tables[size_t(tuple.table)].alias + "'");
  // Each aggregate sees only the rows the WHERE keeps: agg(CASE WHEN cond THEN arg END).
  std::function<AstPtr(const AstPtr&)> filter_aggregates = [&](const AstPtr& x) -> AstPtr {
    if (!x) return x;
    if (is_aggregate_call(*x)) {
      if (x->within_group) refuse(*e, "an ordered-set aggregate (WITHIN GROUP) in it");
      auto call = std::make_shared<AstExpr>(*x);
      if (call->star_arg) {
        call->star_arg = false;
        call->children = {literal(Value::integer(1), "1", *x)};
      }
      if (cond) call->children[0] = case_when(cond, call->children[0], nullptr);
      return call;
    }
    std::shared_ptr<AstExpr> copy;
    for (size_t i = 0; i < x->children.size(); i++) {
      AstPtr n = filter_aggregates(x->children[i]);
      if (n == x->children[i]) continue;
      if (!copy) copy = std::make_shared<AstExpr>(*x);
      copy->children[i] = n;
    }
    return copy ? copy : x;
  };
  if (exists) {
    auto count = node(AstKind::kFunction, *e);
    count->name = "count";
    count->star_arg = true;
    value = count;
  }
  value = filter_aggregates(value);

  std::string key = (exists ? "exists " : "scalar ") + e->to_string();
  if (exists) {
    auto plain = std::make_shared<AstExpr>(*e);
    plain->negated = false;
    key = "exists " + plain->to_string();
  }
  std::string alias;
  for (auto& [k, a] : general_domains_)
    if (k == key) alias = a;
  if (alias.empty()) alias = join_general_domain(*e, sub, tuple, value);
  if (alias == "-") {
    // The inner FROM has no rows: the subquery's value over no rows.
    if (exists) return literal(Value::boolean(e->negated), e->negated ? "true" : "false", *e);
    auto empty = std::make_shared<SelectStatement>(sub);
    empty->where = literal(Value::boolean(false), "false", *e);
    OuterTuple ignored;
    empty->select[0].expr = replace_outer(sub.select[0].expr, c, ignored, [](size_t, const AstExpr& at) {
      return literal(Value::null(), "NULL", at);
    });
    auto none = node(AstKind::kSubquery, *e);
    none->subquery = empty;
    none->text = "(" + e->to_string() + " over no rows)";
    return none;
  }
  general_domains_.emplace_back(key, alias);
  AstPtr v = col(alias, "__v", *e);
  if (!exists) return v;
  AstPtr found = binary(">", v, literal(Value::bigint(0), "0", *e));
  if (!e->negated) return found;
  auto n = node(AstKind::kUnary, *e);
  n->op = "not";
  n->children = {found};
  return n;
}

std::string Binder::join_general_domain(const AstExpr& at, const SelectStatement& sub, const OuterTuple& tuple,
                                        const AstPtr& value) {
  auto domain = std::make_shared<SelectStatement>();
  domain->distinct = true;
  TableItem stored;
  stored.name = stored_from_[size_t(tuple.table)];
  domain->from.push_back(stored);
  auto grouped = std::make_shared<SelectStatement>();
  grouped->with = sub.with;
  TableItem d;
  d.subquery = domain;
  d.alias = "__d";
  grouped->from.push_back(d);
  for (auto& f : sub.from) grouped->from.push_back(f);
  std::vector<AstPtr> joins;
  const std::string alias = "__correlated_" + std::to_string(q_.tables.size());
  for (size_t i = 0; i < tuple.columns.size(); i++) {
    const std::string n = std::to_string(i + 1);
    const Type type = shapes_[size_t(tuple.table)].type(size_t(tuple.column_index[i]));
    AstPtr zero = zero_of(type, at);
    if (!zero) refuse(at, "an outer column of unknown type");
    auto key_of = [&](const AstPtr& x) { return case_when(is_null(x), zero, x); };
    auto null_of = [&](const AstPtr& x) {
      return case_when(is_null(x), literal(Value::integer(1), "1", at), literal(Value::integer(0), "0", at));
    };
    AstPtr plain = col("", shapes_[size_t(tuple.table)].name(size_t(tuple.column_index[i])), at);
    domain->select.push_back({key_of(plain), "__z" + n});
    domain->select.push_back({null_of(plain), "__n" + n});
    domain->select.push_back({plain, "__k" + n});
    grouped->select.push_back({col("__d", "__z" + n, at), "__z" + n});
    grouped->select.push_back({col("__d", "__n" + n, at), "__n" + n});
    for (const char* k : {"__z", "__n", "__k"}) grouped->group_by.push_back(col("__d", k + n, at));
    joins.push_back(binary("=", key_of(tuple.columns[i]), col(alias, "__z" + n, at)));
    joins.push_back(binary("=", null_of(tuple.columns[i]), col(alias, "__n" + n, at)));
  }
  grouped->select.push_back({value, "__v"});
  TempTable shape = materialize(*grouped, alias, {}, "subquery " + at.to_string().substr(0, 60));
  if (shape.rows() == 0) return "-";
  add_table(std::move(shape), alias);
  for (auto& j : joins) domain_joins_.push_back(j);
  return alias;
}

}  // namespace raydb::sql
