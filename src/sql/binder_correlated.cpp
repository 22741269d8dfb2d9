// Correlated subqueries in WHERE, decorrelated into joins before binding (the common
// TPC-H shapes, as DuckDB and Umbra unnest them):
//  - [NOT] EXISTS (SELECT ... WHERE inner = outer AND <uncorrelated>): a membership
//    test of outer in the distinct non-NULL values of inner, i.e. a semi (anti) join:
//    EXISTS = outer IS NOT NULL AND outer IN (SELECT DISTINCT inner ...); NOT EXISTS
//    its negation (exact: the IN is never unknown there).
//  - x op (SELECT agg(...) WHERE inner1 = outer1 AND ... AND <uncorrelated>) as a
//    conjunct of WHERE: a derived table grouped on the inner keys, joined on
//    outer_i = key_i, with the subquery replaced by its aggregate column. The table has
//    one row per key, so no outer row repeats; an outer row without a group would
//    compare with NULL and fail, as it fails the join. COUNT is 0, not NULL, over no
//    rows, so a correlated COUNT needs an outer join and is refused.
// Every other correlated shape is refused with one line; nothing runs row by row.
#include "common/error.h"
#include "sql/ast_nodes.h"
#include "sql/binder.h"
#include "sql/binder_correlation.h"

namespace raydb::sql {

namespace {

AstPtr make_and(std::vector<AstPtr> terms) {
  AstPtr out;
  for (auto& t : terms) {
    if (!out) {
      out = t;
      continue;
    }
    auto e = std::make_shared<AstExpr>();
    e->kind = AstKind::kBinary;
    e->op = "and";
    e->line = out->line, e->column = out->column;
    e->children = {out, t};
    out = e;
  }
  return out;
}

AstPtr is_null(AstPtr x, bool negated) {
  auto e = std::make_shared<AstExpr>();
  e->kind = AstKind::kIsNull;
  e->negated = negated;
  e->line = x->line, e->column = x->column;
  e->children = {std::move(x)};
  return e;
}

bool is_comparison(const AstExpr& e) {
  return e.kind == AstKind::kBinary &&
         (e.op == "=" || e.op == "<>" || e.op == "<" || e.op == "<=" || e.op == ">" || e.op == ">=");
}

bool calls_count(const AstExpr& e) {
  if (e.kind == AstKind::kFunction && e.name == "count") return true;
  for (auto& c : e.children)
    if (calls_count(*c)) return true;
  return false;
}

}  // namespace

Binder::Correlation Binder::correlation_of(const SelectStatement& sub) const {
  Correlation c;
  c.outer = this;
  if (sub.set_op != SetOp::kNone) {
    c.complete = false;
    return c;
  }
  for (const TableItem& item : sub.from) {
    const std::string alias = item.alias.empty() ? item.name : item.alias;
    bool cte_shadowed = false;
    for (auto& w : sub.with) cte_shadowed = cte_shadowed || iequals(w.name, item.name);
    if (item.subquery || item.function || cte_shadowed) {
      c.complete = false;
      continue;
    }
    if (const TempTable* t = find_cte(item.name)) {
      c.inner.emplace_back(alias, *t);
    } else if (views_ && views_(item.name)) {
      c.complete = false;  // a view's columns are known once it runs
    } else if (TablePtr t = resolve_(item.name)) {
      c.inner.emplace_back(alias, TempTable::stored(std::move(t)));
    } else {
      c.complete = false;
    }
  }
  return c;
}

bool Binder::is_correlated(const SelectStatement& sub, const Correlation& c) const {
  if (!c.complete) return false;
  if (c.reads_outer(sub.where) || c.reads_outer(sub.having)) return true;
  for (auto& item : sub.select)
    if (c.reads_outer(item.expr)) return true;
  for (auto& t : sub.from)
    if (c.reads_outer(t.on)) return true;
  for (auto& g : sub.group_by)
    if (c.reads_outer(g)) return true;
  return false;
}

bool Binder::reads_outer_columns(const SelectStatement& sub) const { return is_correlated(sub, correlation_of(sub)); }

namespace {

[[noreturn]] void refuse(const AstExpr& e, const std::string& why) {
  fail(ErrorKind::kNotImplemented, "correlated subquery {} is not supported: {} (line {}, column {})",
       e.to_string().substr(0, 120), why, e.line, e.column);
}

}  // namespace

// Splits the subquery's WHERE into equality correlations (inner = outer; inner[i] and
// outer[i]) and the rest, which must not read outer columns.
// Whether a subquery nested in e names a column of the outer block by its qualifier
// (a correlation two levels deep), looking through every nesting level.
bool nested_outer_ref(const AstExpr& e, const std::vector<std::string>& outer, std::vector<std::string>& shadow,
                      int depth) {
  if (e.kind == AstKind::kColumn && depth > 0 && !e.qualifier.empty()) {
    bool shadowed = false;
    for (auto& a : shadow) shadowed = shadowed || iequals(a, e.qualifier);
    for (auto& a : outer)
      if (!shadowed && iequals(a, e.qualifier)) return true;
  }
  for (auto& c : e.children)
    if (nested_outer_ref(*c, outer, shadow, depth)) return true;
  if (!e.subquery) return false;
  const SelectStatement& st = *e.subquery;
  const size_t mark = shadow.size();
  for (auto& t : st.from) shadow.push_back(t.alias.empty() ? t.name : t.alias);
  bool found = false;
  auto check = [&](const AstPtr& x) { found = found || (x && nested_outer_ref(*x, outer, shadow, depth + 1)); };
  check(st.where);
  check(st.having);
  for (auto& item : st.select) check(item.expr);
  for (auto& t : st.from) check(t.on);
  shadow.resize(mark);
  return found;
}

void Binder::split_correlation(const AstExpr& at, const SelectStatement& sub, const Correlation& c,
                               std::vector<AstPtr>& inner_keys, std::vector<AstPtr>& outer_keys,
                               std::vector<AstPtr>& rest, std::vector<AstPtr>* ne_inner,
                               std::vector<AstPtr>* ne_outer) const {
  std::vector<AstPtr> terms;
  split_and(sub.where, terms);
  std::vector<std::string> outer_aliases, shadow;
  for (auto& t : q_.tables) outer_aliases.push_back(t.alias);
  for (auto& [alias, t] : c.inner) shadow.push_back(alias);
  for (auto& t : terms) {
    if (nested_outer_ref(*t, outer_aliases, shadow, 0))
      refuse(at, "a subquery inside it reads the outer block's columns (correlation nested two levels deep)");
    if (!c.reads_outer(t)) {
      rest.push_back(t);
      continue;
    }
    const bool ne = ne_inner && t->kind == AstKind::kBinary && t->op == "<>";
    bool ok = t->kind == AstKind::kBinary && (t->op == "=" || ne);
    if (ok) {
      bool li = false, lo = false, ri = false, ro = false;
      c.sides(*t->children[0], li, lo);
      c.sides(*t->children[1], ri, ro);
      std::vector<AstPtr>& in = ne ? *ne_inner : inner_keys;
      std::vector<AstPtr>& out = ne ? *ne_outer : outer_keys;
      if (li && !lo && ro && !ri) {
        in.push_back(t->children[0]), out.push_back(t->children[1]);
      } else if (ri && !ro && lo && !li) {
        in.push_back(t->children[1]), out.push_back(t->children[0]);
      } else {
        ok = false;
      }
    }
    if (!ok)
      refuse(at, std::string("outer columns may appear only in inner = outer") + (ne_inner ? " and inner <> outer" : "") +
                     " conditions of its WHERE, not in '" + t->to_string() + "'");
  }
  for (auto& t : sub.from)
    if (c.reads_outer(t.on)) refuse(at, "its JOIN ... ON reads outer columns");
  if (c.reads_outer(sub.having)) refuse(at, "its HAVING reads outer columns");
  for (auto& g : sub.group_by)
    if (c.reads_outer(g)) refuse(at, "its GROUP BY reads outer columns");
}

AstPtr Binder::semi_join(const AstExpr& at, const SelectStatement& sub, const std::vector<AstPtr>& inner,
                         const std::vector<AstPtr>& outer, std::vector<AstPtr> rest) {
  const std::string alias = "__semi_" + std::to_string(q_.tables.size());
  auto keys = std::make_shared<SelectStatement>();
  keys->with = sub.with;
  keys->from = sub.from;
  keys->distinct = true;
  for (size_t i = 0; i < inner.size(); i++) {
    keys->select.push_back({inner[i], "k" + std::to_string(i + 1)});
    rest.push_back(is_null(inner[i], true));
  }
  keys->where = make_and(rest);
  add_table(materialize(*keys, alias, {}, "subquery " + at.to_string().substr(0, 60)), alias);
  std::vector<AstPtr> terms;
  for (size_t i = 0; i < outer.size(); i++) {
    auto eq = std::make_shared<AstExpr>();
    eq->kind = AstKind::kBinary;
    eq->op = "=";
    eq->line = at.line, eq->column = at.column;
    eq->children = {outer[i], col(alias, "k" + std::to_string(i + 1))};
    terms.push_back(eq);
  }
  return make_and(terms);
}

AstPtr Binder::decorrelate_exists(const AstPtr& e, const Correlation& c, bool top) {
  const SelectStatement& sub = *e->subquery;
  std::vector<AstPtr> inner, outer, rest, ne_inner, ne_outer;
  split_correlation(*e, sub, c, inner, outer, rest, &ne_inner, &ne_outer);
  if (sub.having || sub.limit || sub.offset) refuse(*e, "EXISTS with HAVING, LIMIT or OFFSET");
  if (inner.empty()) refuse(*e, "EXISTS is decorrelated with an inner = outer condition");
  if (inner.size() > 1 && !(top && !e->negated && ne_inner.empty()))
    refuse(*e, "EXISTS with several inner = outer conditions is decorrelated only as a condition of WHERE (not "
               "under NOT or OR, nor next to <>)");
  if (ne_inner.size() > 1) refuse(*e, "EXISTS is decorrelated for at most one inner <> outer condition");
  bool aggregate_only = sub.group_by.empty();
  for (auto& item : sub.select) aggregate_only = aggregate_only && contains_aggregate(*item.expr);
  if (aggregate_only) {  // an aggregate without GROUP BY always gives one row
    auto t = std::make_shared<AstExpr>(*e);
    t->kind = AstKind::kLiteral;
    t->value = Value::boolean(!e->negated);
    t->text = e->negated ? "false" : "true";
    t->subquery = nullptr;
    return t;
  }
  if (!ne_inner.empty() && top)
    if (AstPtr own = exists_on_own_rows(e, rest, inner[0], outer[0], ne_inner[0], ne_outer[0])) return own;
  if (!ne_inner.empty()) {
    if (top && !e->negated) return exists_with_inequality_join(e, rest, inner[0], outer[0], ne_inner[0], ne_outer[0]);
    return exists_with_inequality(e, rest, inner[0], outer[0], ne_inner[0], ne_outer[0]);
  }
  if (inner.size() > 1) return semi_join(*e, sub, inner, outer, rest);  // distinct key tuples: no row repeats
  if (AstPtr r = key_reduction(inner[0], outer[0])) rest.push_back(r);
  // SELECT DISTINCT inner FROM ... WHERE rest AND inner IS NOT NULL
  auto keys = std::make_shared<SelectStatement>();
  keys->with = sub.with;
  keys->from = sub.from;
  keys->distinct = true;
  keys->select.push_back({inner[0], ""});
  rest.push_back(is_null(inner[0], true));
  keys->where = make_and(rest);
  auto in = std::make_shared<AstExpr>();
  in->kind = AstKind::kInList;
  in->line = e->line, in->column = e->column;
  in->children = {outer[0]};
  in->subquery = keys;
  in->text = e->text;
  AstPtr exists = make_and({is_null(outer[0], true), in});
  if (!e->negated) return exists;
  auto n = std::make_shared<AstExpr>();
  n->kind = AstKind::kUnary;
  n->op = "not";
  n->line = e->line, n->column = e->column;
  n->children = {exists};
  return n;
}

// `conjunct` is `x op (subquery)` or `(subquery) op x`, the subquery at `side`.
AstPtr Binder::decorrelate_scalar(const AstPtr& conjunct, size_t side, const Correlation& c) {
  const AstExpr& e = *conjunct->children[side];
  const SelectStatement& sub = *e.subquery;
  std::vector<AstPtr> inner, outer, rest;
  split_correlation(e, sub, c, inner, outer, rest);
  if (!sub.group_by.empty() || sub.having || sub.limit || sub.offset || sub.distinct || sub.select.size() != 1 ||
      sub.select[0].expr->kind == AstKind::kStar || !contains_aggregate(*sub.select[0].expr))
    refuse(e, "a scalar subquery is decorrelated when it selects one aggregate, without GROUP BY, HAVING, "
              "DISTINCT or LIMIT");
  if (inner.empty()) refuse(e, "no inner = outer condition");
  if (calls_count(*sub.select[0].expr)) {
    // COUNT over no rows is 0, not NULL: the subquery over every outer key value.
    if (inner.size() != 1) refuse(e, "a correlated COUNT is decorrelated for exactly one inner = outer condition");
    auto cmp = std::make_shared<AstExpr>(*conjunct);
    cmp->children[side] = scalar_over_domain(e, rest, inner[0], outer[0]);
    return cmp;
  }
  for (size_t i = 0; i < inner.size(); i++)
    if (AstPtr r = key_reduction(inner[i], outer[i])) rest.push_back(r);
  const std::string alias = "__subquery_" + std::to_string(q_.tables.size());
  auto grouped = std::make_shared<SelectStatement>();
  grouped->with = sub.with;
  grouped->from = sub.from;
  grouped->where = make_and(rest);
  for (size_t i = 0; i < inner.size(); i++) {
    grouped->select.push_back({inner[i], "k" + std::to_string(i + 1)});
    grouped->group_by.push_back(inner[i]);
  }
  grouped->select.push_back({sub.select[0].expr, "v"});
  add_table(materialize(*grouped, alias, {}, "subquery " + e.to_string().substr(0, 60)), alias);
  std::vector<AstPtr> terms;
  for (size_t i = 0; i < outer.size(); i++) {
    auto eq = std::make_shared<AstExpr>();
    eq->kind = AstKind::kBinary;
    eq->op = "=";
    eq->line = e.line, eq->column = e.column;
    eq->children = {outer[i], col(alias, "k" + std::to_string(i + 1))};
    terms.push_back(eq);
  }
  auto cmp = std::make_shared<AstExpr>(*conjunct);
  cmp->children[side] = col(alias, "v");
  terms.push_back(cmp);
  return make_and(terms);
}

void Binder::add_table(TempTable shape, const std::string& alias) {
  if (q_.tables.size() == 64) fail(ErrorKind::kBinder, "a query may read at most 64 tables");
  plan::TableRef ref;
  ref.name = shape.table->name();
  ref.alias = alias;
  ref.table = shape.table;
  q_.tables.push_back(std::move(ref));
  shapes_.push_back(std::move(shape));
}

// Rewrites e, replacing correlated subqueries (not looking into uncorrelated ones) by
// their decorrelated forms; `top` when e is a conjunct of WHERE.
AstPtr Binder::decorrelate(const AstPtr& e, bool top) {
  if (!e) return e;
  // NOT EXISTS as a conjunct of WHERE: the negated EXISTS, still a conjunct (its forms
  // over the outer row's own rows need to know).
  if (top && e->kind == AstKind::kUnary && e->op == "not" && e->children.size() == 1 &&
      e->children[0]->kind == AstKind::kSubquery && e->children[0]->op == "exists" && e->children[0]->subquery) {
    auto negated = std::make_shared<AstExpr>(*e->children[0]);
    negated->negated = !negated->negated;
    if (is_correlated(*negated->subquery, correlation_of(*negated->subquery))) return decorrelate(negated, true);
  }
  if (e->subquery && e->kind == AstKind::kSubquery) {
    Correlation c = correlation_of(*e->subquery);
    if (!is_correlated(*e->subquery, c)) return e;
    if (e->op == "exists") {
      try {
        return decorrelate_exists(e, c, top);
      } catch (const Error& err) {
        if (err.kind() != ErrorKind::kNotImplemented) throw;
      }
    }
    return decorrelate_general(e, c);  // any correlation, anywhere in WHERE
  }
  if (e->subquery) {  // x IN (SELECT ...)
    Correlation c = correlation_of(*e->subquery);
    if (is_correlated(*e->subquery, c)) {
      // x IN (SELECT y ... WHERE inner = outer ...) as a condition of WHERE: a semi join
      // on (inner..., y) = (outer..., x); NOT IN or IN under OR/NOT is refused.
      if (!top || e->negated || e->kind != AstKind::kInList)
        refuse(*e, "NOT IN, or IN under NOT or OR, with a correlated subquery");
      const SelectStatement& sub = *e->subquery;
      std::vector<AstPtr> inner, outer, rest;
      split_correlation(*e, sub, c, inner, outer, rest);
      if (sub.select.size() != 1 || sub.select[0].expr->kind == AstKind::kStar || !sub.group_by.empty() ||
          sub.having || sub.limit || sub.offset || contains_aggregate(*sub.select[0].expr) || inner.empty() ||
          c.reads_outer(sub.select[0].expr))
        refuse(*e, "IN is decorrelated for one selected expression without aggregates, GROUP BY, HAVING or LIMIT, "
                   "with inner = outer conditions");
      inner.push_back(sub.select[0].expr);
      outer.push_back(e->children[0]);
      return semi_join(*e, sub, inner, outer, rest);
    }
  }
  if (top && is_comparison(*e)) {
    for (size_t side = 0; side < 2; side++) {
      const AstPtr& s = e->children[side];
      if (s->kind != AstKind::kSubquery || s->op == "exists") continue;
      Correlation c = correlation_of(*s->subquery);
      if (!is_correlated(*s->subquery, c)) continue;
      try {
        return decorrelate_scalar(e, side, c);
      } catch (const Error& err) {
        // Not a key correlation: the general form below, reached through the children.
        if (err.kind() != ErrorKind::kNotImplemented) throw;
      }
    }
  }
  std::shared_ptr<AstExpr> copy;
  for (size_t i = 0; i < e->children.size(); i++) {
    AstPtr n = decorrelate(e->children[i], top && e->kind == AstKind::kBinary && e->op == "and");
    if (n == e->children[i]) continue;
    if (!copy) copy = std::make_shared<AstExpr>(*e);
    copy->children[i] = n;
  }
  return copy ? copy : e;
}

// Correlated scalar subqueries in the select list (over the outer key's domain,
// binder_correlated_domain.cpp).
AstPtr Binder::decorrelate_select_expr(const AstPtr& e) {
  if (!e) return e;
  if (e->subquery) {
    Correlation c = correlation_of(*e->subquery);
    if (!is_correlated(*e->subquery, c)) return e;
    if (e->kind != AstKind::kSubquery) refuse(*e, "in the select list IN with a correlated subquery");
    if (e->op == "exists") return decorrelate_general(e, c);
    try {
      return scalar_over_key(e, c);
    } catch (const Error& err) {
      if (err.kind() != ErrorKind::kNotImplemented) throw;
    }
    return decorrelate_general(e, c);
  }
  std::shared_ptr<AstExpr> copy;
  for (size_t i = 0; i < e->children.size(); i++) {
    AstPtr n = decorrelate_select_expr(e->children[i]);
    if (n == e->children[i]) continue;
    if (!copy) copy = std::make_shared<AstExpr>(*e);
    copy->children[i] = n;
  }
  return copy ? copy : e;
}

// A correlated scalar aggregate subquery with one inner = outer key, over the key's domain.
AstPtr Binder::scalar_over_key(const AstPtr& e, const Correlation& c) {
  const SelectStatement& sub = *e->subquery;
  std::vector<AstPtr> inner, outer, rest;
  split_correlation(*e, sub, c, inner, outer, rest);
  if (!sub.group_by.empty() || sub.having || sub.limit || sub.offset || sub.distinct || sub.select.size() != 1 ||
      sub.select[0].expr->kind == AstKind::kStar || !contains_aggregate(*sub.select[0].expr))
    refuse(*e, "a scalar subquery is decorrelated when it selects one aggregate, without GROUP BY, HAVING, "
               "DISTINCT or LIMIT");
  if (inner.size() != 1) refuse(*e, "in the select list it is decorrelated for exactly one inner = outer condition");
  return scalar_over_domain(*e, rest, inner[0], outer[0]);
}

std::vector<SelectItem> Binder::decorrelate_select(const SelectStatement& s) {
  std::vector<SelectItem> items = s.select;
  bool aggregate = !s.group_by.empty() || s.having;
  for (auto& item : s.select) aggregate = aggregate || contains_aggregate(*item.expr);
  for (auto& item : items) {
    if (item.expr->kind == AstKind::kStar) continue;
    if (aggregate) {
      // Grouped blocks keep the refusal the subquery runner gives (its value would
      // need to be a group key).
      continue;
    }
    item.expr = decorrelate_select_expr(item.expr);
  }
  return items;
}

}  // namespace raydb::sql
