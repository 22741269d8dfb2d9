#include "sql/binder.h"

#include "common/error.h"
#include "sql/expression_binder.h"
#include "sql/view_inliner.h"

namespace raydb::sql {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {
bool is_integer_literal(const AstExpr& e) {
  return e.kind == AstKind::kLiteral && !e.value.is_null() &&
         (e.value.type().id == TypeId::kInteger || e.value.type().id == TypeId::kBigint);
}
}  // namespace

plan::LogicalQuery Binder::bind(const SelectStatement& s) {
  bind_with(s.with);
  if (s.set_op != SetOp::kNone) return bind_set_operation(s);
  if (statement_has_window(s)) return bind_windowed(s);
  // Simple views and derived tables are inlined (view_inliner.h); anything else with
  // structure of its own binds as written.
  // (Not with WITH names in scope: the inliner resolves names as base tables.)
  bool derived = false;
  for (auto& t : s.from) derived = derived || (t.subquery && ctes_.empty() && s.with.empty());
  if (!derived && (!views_ || uses_query_structure(s))) return bind_inlined(s);
  inlined_ = ViewInliner(resolve_, views_).inline_views(s);
  return bind_inlined(inlined_);
}

plan::LogicalQuery Binder::bind_inlined(const SelectStatement& in) {
  // Outer joins become the joined rows, one FROM item (binder_outer_join.cpp).
  SelectStatement folded = fold_outer_joins(pre_aggregate_outer_join(in));
  bind_from(folded);
  from_tables_ = q_.tables.size();
  // WHERE's conjuncts limit the keys decorrelated subqueries are computed for.
  set_where_terms(folded.where);
  // Correlated scalar subqueries in the select list join tables before WHERE binds.
  if (runner_) folded.select = decorrelate_select(folded);
  const SelectStatement& s = folded;
  // Correlated subqueries become joins with derived tables (binder_correlated.cpp).
  AstPtr where = s.where && runner_ ? decorrelate(s.where, true) : s.where;
  for (auto& j : domain_joins_) {  // joins the decorrelation added (binder_correlated_domain.cpp)
    if (!where) {
      where = j;
      continue;
    }
    auto a = std::make_shared<AstExpr>();
    a->kind = AstKind::kBinary;
    a->op = "and";
    a->line = where->line, a->column = where->column;
    a->children = {where, j};
    where = a;
  }
  if (where) {
    ExpressionBinder eb = expression_binder(q_.tables.size(), nullptr, "WHERE");
    ExprPtr w = ExpressionBinder::as_predicate(eb.bind(*where), "argument of WHERE");
    plan::split_conjuncts(w, q_.conjuncts);
  }
  expand_select_list(s);

  bool has_aggregate = s.having != nullptr;
  for (auto& e : entries_) has_aggregate = has_aggregate || (e.ast && contains_aggregate(*e.ast));
  for (auto& o : s.order_by) has_aggregate = has_aggregate || contains_aggregate(*o.expr);
  q_.is_aggregate = has_aggregate || !s.group_by.empty();
  bind_group_by(s);

  for (auto& e : entries_) {
    q_.select.push_back(bind_select_entry(e));
    q_.output_names.push_back(e.name);
  }
  if (s.having) {
    q_.having = ExpressionBinder::as_predicate(bind_output_expr(*s.having, "HAVING"), "argument of HAVING");
  }
  q_.distinct = s.distinct;
  bind_order_by(s);
  if (q_.distinct && !q_.is_aggregate && q_.windows.empty()) distinct_as_grouping();
  if (s.limit) q_.limit = bind_limit(*s.limit, "LIMIT");
  if (s.offset) q_.offset = bind_limit(*s.offset, "OFFSET");
  return std::move(q_);
}

void Binder::bind_from(const SelectStatement& s) {
  for (auto& item : s.from) {
    if (q_.tables.size() == 64) fail(ErrorKind::kBinder, "a query may read at most 64 tables");
    TempTable shape;
    stored_from_.emplace_back();
    if (item.subquery) {
      shape = materialize(*item.subquery, item.alias, item.column_aliases, "derived table " + item.alias);
    } else if (item.function) {
      shape = table_function(item);
    } else if (const TempTable* cte = find_cte(item.name)) {
      shape = item.column_aliases.empty() ? *cte : cte->renamed(cte->table->name(), item.column_aliases);
    } else if (std::optional<TempTable> view = view_rows(item)) {
      shape = std::move(*view);
    } else {
      TablePtr stored = resolve_(item.name);
      if (!stored) fail(ErrorKind::kBinder, "unknown table '{}'", item.name);
      stored_from_.back() = item.name;
      shape = TempTable::stored(std::move(stored));
    }
    TablePtr t = shape.table;
    plan::TableRef ref;
    ref.name = t->name();
    ref.alias = item.alias.empty() ? item.name : item.alias;
    for (auto& other : q_.tables)
      if (iequals(other.alias, ref.alias))
        fail(ErrorKind::kBinder, "table name '{}' specified more than once (use an alias)", ref.alias);
    ref.table = std::move(t);
    q_.tables.push_back(std::move(ref));
    shapes_.push_back(std::move(shape));
  }
  // ON sees the tables joined so far, as in PostgreSQL; later ones exist only to
  // explain the error.
  for (size_t i = 0; i < s.from.size(); i++) {
    if (!s.from[i].on) continue;
    ExpressionBinder eb = expression_binder(i + 1, nullptr, "JOIN conditions");
    ExprPtr on = ExpressionBinder::as_predicate(eb.bind(*s.from[i].on), "argument of JOIN/ON");
    plan::split_conjuncts(on, q_.conjuncts);
  }
}

// The quantile list of quantile_disc(x, [q1, q2, ...]) and the like (DuckDB's list
// form), or -1: which argument holds it.
static int quantile_list_argument(const AstExpr& e) {
  if (e.kind != AstKind::kFunction) return -1;
  const bool percentile = e.name == "percentile_disc" || e.name == "percentile_cont";
  const bool quantile = e.name == "quantile_disc" || e.name == "quantile_cont" || e.name == "quantile";
  const size_t at = percentile ? 0 : 1;
  if ((!percentile && !quantile) || e.children.size() <= at) return -1;
  const AstExpr& q = *e.children[at];
  return q.kind == AstKind::kFunction && q.name == "list_value" ? int(at) : -1;
}

void Binder::expand_select_list(const SelectStatement& s) {
  for (auto& item : s.select) {
    const AstExpr& e = *item.expr;
    if (const int at = quantile_list_argument(e); at >= 0) {
      // One column per quantile, each as if written alone (named alias_1, alias_2, ...
      // when the item has an alias): raydb has no LIST type to return them in.
      const AstExpr& list = *e.children[size_t(at)];
      if (list.children.empty()) fail(ErrorKind::kBinder, "an empty list of quantiles in '{}'", e.to_string());
      for (size_t k = 0; k < list.children.size(); k++) {
        auto one = std::make_shared<AstExpr>(e);
        one->children[size_t(at)] = list.children[k];
        expanded_items_.push_back(one);
        SelectEntry entry;
        entry.ast = one.get();
        entry.aliased = !item.alias.empty();
        entry.name = entry.aliased ? item.alias + "_" + std::to_string(k + 1) : one->to_string();
        entries_.push_back(std::move(entry));
      }
      continue;
    }
    if (e.kind != AstKind::kStar) {
      SelectEntry entry;
      entry.ast = &e;
      entry.aliased = !item.alias.empty();
      entry.name = entry.aliased ? item.alias : e.kind == AstKind::kColumn ? "" : e.to_string();
      entries_.push_back(std::move(entry));
      continue;
    }
    if (q_.tables.empty()) fail(ErrorKind::kBinder, "SELECT * with no tables specified is not valid");
    size_t begin = 0, end = from_tables_;
    std::string joined;  // t.* of an item inside an outer join's rows
    if (!e.qualifier.empty()) {
      begin = end;
      for (size_t i = 0; i < from_tables_; i++)
        if (iequals(q_.tables[i].alias, e.qualifier)) begin = i;
      for (size_t i = 0; i < from_tables_ && begin == end; i++)
        if (shapes_[i].has_qualifier(e.qualifier)) begin = i, joined = e.qualifier;
      if (begin == end) fail(ErrorKind::kBinder, "unknown table or alias '{}' in '{}'", e.qualifier, e.to_string());
      end = begin + 1;
    }
    ExpressionBinder eb = expression_binder(q_.tables.size(), nullptr, "SELECT");
    for (size_t t = begin; t < end; t++) {
      for (size_t c = 0; c < shapes_[t].columns(); c++) {
        if (!joined.empty() && !iequals(shapes_[t].qualifiers[c], joined)) continue;
        SelectEntry entry;
        entry.name = shapes_[t].name(c);
        entry.star_column =
            eb.column_expr(t, int(c), e.qualifier.empty() ? entry.name : q_.tables[t].alias + "." + entry.name);
        entries_.push_back(std::move(entry));
      }
    }
  }
  // A plain column is named after the column as stored (not as written).
  for (auto& entry : entries_) {
    if (!entry.ast || entry.aliased || entry.ast->kind != AstKind::kColumn) continue;
    ExpressionBinder eb = expression_binder(q_.tables.size(), nullptr, "SELECT");
    ExprPtr c = eb.bind(*entry.ast);
    entry.name = c->kind == ExprKind::kColumnRef
                     ? shapes_[size_t(c->table_index)].name(size_t(c->column_index))
                     : entry.ast->name;  // a nullable column of a temporary table (temp_table.h)
  }
}

int Binder::ordinal(const AstExpr& e, const char* clause) const {
  if (!is_integer_literal(e)) return -1;
  int64_t n = e.value.as_int();
  if (n < 1 || n > int64_t(entries_.size()))
    fail(ErrorKind::kBinder, "{} position {} is not in select list (it has {} items)", clause, n, entries_.size());
  return int(n - 1);
}

void Binder::bind_group_by(const SelectStatement& s) {
  ExpressionBinder eb = expression_binder(q_.tables.size(), nullptr, "GROUP BY");
  for (auto& g : s.group_by) {
    ExprPtr key;
    int pos = ordinal(*g, "GROUP BY");
    const AstExpr* ast = g.get();
    if (pos >= 0) {
      if (entries_[size_t(pos)].star_column) key = entries_[size_t(pos)].star_column;
      ast = entries_[size_t(pos)].ast;
    } else if (g->kind == AstKind::kColumn && g->qualifier.empty() && !eb.has_column(g->name)) {
      // GROUP BY prefers input columns; an unknown name may be a select-list alias (PostgreSQL's rule).
      for (auto& entry : entries_)
        if (entry.aliased && entry.name == g->name) {
          ast = entry.ast;
          break;
        }
    }
    if (!key) key = eb.bind(*ast);
    bool duplicate = false;
    for (auto& k : q_.group_keys) duplicate = duplicate || plan::same_expr(*k, *key);
    if (!duplicate) q_.group_keys.push_back(key);
  }
}

// SELECT DISTINCT without aggregates is GROUP BY its select list: the executors'
// parallel hash aggregation instead of projecting every row and removing duplicates
// after (a 1.5 M-row DISTINCT took ten times as long as the same GROUP BY). NULLs form
// one group in both. ORDER BY of a DISTINCT reads output columns only (bind_order_by),
// which stay. A select list of constants only keeps DISTINCT: a grouping without keys
// would return one row for no input rows. So does one with a DOUBLE: DISTINCT keeps the
// first of -0 and 0 as PostgreSQL does, a group's key prints 0.
void Binder::distinct_as_grouping() {
  std::vector<ExprPtr> keys;
  for (auto& e : q_.select) {
    if (e->type.id == TypeId::kDouble) return;
    if (e->kind == ExprKind::kConstant) continue;
    bool duplicate = false;
    for (auto& k : keys) duplicate = duplicate || plan::same_expr(*k, *e);
    if (!duplicate) keys.push_back(e);
  }
  if (keys.empty()) return;
  q_.group_keys = std::move(keys);
  q_.is_aggregate = true;
  q_.distinct = false;
  for (auto& e : q_.select) e = to_post_aggregation(e);
}

ExprPtr Binder::to_post_aggregation(const ExprPtr& e) {
  if (e->kind == ExprKind::kAggregateRef || e->kind == ExprKind::kConstant) return e;
  for (size_t i = 0; i < q_.group_keys.size(); i++)
    if (plan::same_expr(*e, *q_.group_keys[i])) return Expr::group_ref(int(i), e->type, q_.group_keys[i]->to_string());
  if (e->kind == ExprKind::kColumnRef)
    fail(ErrorKind::kBinder, "column '{}' must appear in the GROUP BY clause or be used in an aggregate function",
         e->name);
  auto copy = std::make_shared<Expr>(*e);
  for (auto& c : copy->children) c = to_post_aggregation(c);
  return copy;
}

ExprPtr Binder::bind_output_expr(const AstExpr& e, const std::string& clause) {
  ExpressionBinder eb = expression_binder(q_.tables.size(), &q_.aggregates, clause);
  ExprPtr bound = eb.bind(e);
  return q_.is_aggregate ? to_post_aggregation(bound) : bound;
}

ExprPtr Binder::bind_select_entry(const SelectEntry& entry) {
  if (entry.star_column) return q_.is_aggregate ? to_post_aggregation(entry.star_column) : entry.star_column;
  return bind_output_expr(*entry.ast, "SELECT");
}

void Binder::bind_order_by(const SelectStatement& s) {
  for (auto& o : s.order_by) {
    plan::OrderItem item;
    item.descending = o.descending;
    item.nulls_first = sorts_nulls_first(o.descending, o.nulls);
    int pos = ordinal(*o.expr, "ORDER BY");
    if (pos < 0 && o.expr->kind == AstKind::kColumn && o.expr->qualifier.empty()) {
      // ORDER BY prefers output names (aliases and column names) over input columns.
      for (size_t i = 0; i < entries_.size(); i++) {
        if (!iequals(entries_[i].name, o.expr->name)) continue;
        if (pos >= 0 && !plan::same_expr(*q_.select[size_t(pos)], *q_.select[i]))
          fail(ErrorKind::kBinder, "ORDER BY '{}' is ambiguous: it names more than one select list item",
               o.expr->name);
        if (pos < 0) pos = int(i);
      }
    }
    if (pos >= 0) {
      item.expr = Expr::output_ref(pos, q_.select[size_t(pos)]->type, q_.output_names[size_t(pos)]);
    } else {
      item.expr = bind_output_expr(*o.expr, "ORDER BY");
      if (q_.distinct) {
        // After DISTINCT only the select list exists (PostgreSQL's rule).
        int found = -1;
        for (size_t i = 0; i < q_.select.size() && found < 0; i++)
          if (plan::same_expr(*q_.select[i], *item.expr)) found = int(i);
        if (found < 0)
          fail(ErrorKind::kBinder, "for SELECT DISTINCT, ORDER BY expressions must appear in select list: '{}'",
               o.expr->to_string());
        item.expr = Expr::output_ref(found, q_.select[size_t(found)]->type, q_.output_names[size_t(found)]);
      }
    }
    q_.order_by.push_back(std::move(item));
  }
}

int64_t Binder::bind_limit(const AstExpr& e, const char* what) {
  std::vector<plan::TableRef> none;
  ExpressionBinder eb(none, 0, nullptr, what);
  ExprPtr v;
  try {
    v = eb.bind(e);
  } catch (const Error& err) {
    if (err.kind() != ErrorKind::kBinder) throw;
    fail(ErrorKind::kBinder, "{} must be a non-negative integer constant, got '{}'", what, e.to_string());
  }
  bool ok = v->kind == ExprKind::kConstant && !v->value.is_null() &&
            (v->type.id == TypeId::kInteger || v->type.id == TypeId::kBigint) && v->value.as_int() >= 0;
  if (!ok) fail(ErrorKind::kBinder, "{} must be a non-negative integer constant, got '{}'", what, e.to_string());
  return v->value.as_int();
}

}  // namespace raydb::sql
