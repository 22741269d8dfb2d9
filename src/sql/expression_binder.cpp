#include "sql/expression_binder.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "common/expression_depth.h"
#include "common/error.h"
#include "sql/constant_folder.h"
#include "sql/edit_distance.h"
#include "sql/key_set_builder.h"
#include "sql/type_rules.h"

namespace raydb::sql {

using plan::AggFunc;
using plan::ArithOp;
using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

bool is_constant(const ExprPtr& e) { return e->kind == ExprKind::kConstant; }

std::optional<AggFunc> aggregate_function(const std::string& name) {
  if (name == "count") return AggFunc::kCount;
  if (name == "sum") return AggFunc::kSum;
  if (name == "min") return AggFunc::kMin;
  if (name == "max") return AggFunc::kMax;
  if (name == "avg") return AggFunc::kAvg;
  if (name == "bool_and") return AggFunc::kMin;  // over BOOLEAN (false < true): false if any is false
  if (name == "bool_or") return AggFunc::kMax;
  return std::nullopt;
}

// The order-statistic aggregates (median, quantiles, percentiles, k-th values).
bool order_stat_function(const std::string& name) {
  return name == "median" || name == "quantile_disc" || name == "quantile_cont" || name == "quantile" ||
         name == "percentile_disc" || name == "percentile_cont" || name == "kth_smallest" || name == "kth_largest";
}

// q of a quantile: a numeric constant in [0, 1], as an exact fraction. Decimal literals
// stay exact (0.25 = 25/100); a DOUBLE is rounded to 15 decimals, as DuckDB binds it.
std::pair<int64_t, int64_t> quantile_fraction(const ExprPtr& q, const AstExpr& whole) {
  if (!is_constant(q) || q->value.is_null() || !q->type.is_numeric())
    fail(ErrorKind::kBinder, "the quantile of '{}' must be a numeric constant between 0 and 1", whole.to_string());
  const Value& v = q->value;
  int64_t num = 0, den = 1;
  switch (q->type.id) {
    case TypeId::kInteger:
    case TypeId::kBigint: num = v.as_int(); break;
    case TypeId::kDecimal:
      num = v.as_int();
      for (int i = 0; i < q->type.scale; i++) den *= 10;
      break;
    default: {
      const double d = v.as_double();
      if (!(d >= 0 && d <= 1)) num = -1;
      else num = int64_t(std::llround(d * 1e15)), den = 1000000000000000;
    }
  }
  if (num < 0 || num > den)
    fail(ErrorKind::kBinder, "the quantile of '{}' must be between 0 and 1", whole.to_string());
  return {num, den};
}

std::optional<ArithOp> arith_op(const std::string& op) {
  if (op == "+") return ArithOp::kAdd;
  if (op == "-") return ArithOp::kSub;
  if (op == "*") return ArithOp::kMul;
  if (op == "/") return ArithOp::kDiv;
  if (op == "%") return ArithOp::kMod;
  return std::nullopt;
}

std::optional<CompareOp> compare_op(const std::string& op) {
  if (op == "=") return CompareOp::kEq;
  if (op == "<>") return CompareOp::kNe;
  if (op == "<") return CompareOp::kLt;
  if (op == "<=") return CompareOp::kLe;
  if (op == ">") return CompareOp::kGt;
  if (op == ">=") return CompareOp::kGe;
  return std::nullopt;
}

// A constant as it reads in SQL, for messages ('abc', 12.50, NULL).
std::string constant_text(const Value& v) {
  return v.type().id == TypeId::kVarchar && !v.is_null() ? "'" + v.as_string() + "'" : v.to_string();
}

// A NULL constant of type NULL adopts `t`, so executors see typed NULLs only.
ExprPtr typed_null(const ExprPtr& e, const Type& t) {
  if (is_constant(e) && e->type.id == TypeId::kNull && t.id != TypeId::kNull) return Expr::constant(Value::null(t));
  return e;
}

// Operands of a chain of the same AND/OR, so a AND b AND c becomes one node.
void flatten(const AstExpr& e, const std::string& op, std::vector<const AstExpr*>& out) {
  ExpressionDepthGuard depth_guard;
  if (e.kind == AstKind::kBinary && e.op == op) {
    flatten(*e.children[0], op, out);
    flatten(*e.children[1], op, out);
  } else {
    out.push_back(&e);
  }
}

}  // namespace

bool contains_aggregate(const AstExpr& e) {
  ExpressionDepthGuard depth_guard;
  if (e.kind == AstKind::kFunction && !e.over && (aggregate_function(e.name) || order_stat_function(e.name)))
    return true;
  for (auto& c : e.children)
    if (contains_aggregate(*c)) return true;
  return false;
}

ExpressionBinder::ExpressionBinder(const std::vector<plan::TableRef>& tables, size_t visible,
                                   std::vector<plan::AggregateExpr>* aggregates, std::string clause)
    : tables_(tables), visible_(visible), aggregates_(aggregates), clause_(std::move(clause)) {}

void ExpressionBinder::require_boolean(const ExprPtr& e, const std::string& what) {
  if (e->type.id != TypeId::kBoolean && e->type.id != TypeId::kNull)
    fail(ErrorKind::kBinder, "{} must be type BOOLEAN, not {}", what, e->type.to_string());
}

ExprPtr ExpressionBinder::as_predicate(const ExprPtr& e, const std::string& what) {
  require_boolean(e, what);
  return typed_null(e, Type::boolean());
}

bool ExpressionBinder::has_column(const std::string& name) const {
  for (size_t i = 0; i < visible_; i++)
    if (find_column(i, name) >= 0) return true;
  return false;
}

int ExpressionBinder::find_column(size_t ti, const std::string& name) const {
  if (shapes_ && ti < shapes_->size()) return (*shapes_)[ti].find_column(name);
  return tables_[ti].table->find_column(name);
}

ExprPtr ExpressionBinder::column_expr(size_t ti, int ci, std::string display) const {
  const Column& col = tables_[ti].table->column(size_t(ci));
  // A BOOLEAN column (stored, or a result's) holds INTEGER 0/1: read as c <> 0, so every
  // backend sees an integer column in an ordinary comparison.
  const bool boolean = col.type().id == TypeId::kBoolean;
  auto as_boolean = [&](ExprPtr c) {
    auto e = std::make_shared<Expr>(*Expr::compare(CompareOp::kNe, c, Expr::constant(Value::integer(0))));
    e->name = display;
    return ExprPtr(e);
  };
  if (!shapes_ || ti >= shapes_->size() || (*shapes_)[ti].is_stored()) {
    if (boolean) return as_boolean(Expr::column(int(ti), ci, Type::integer(), display));
    return Expr::column(int(ti), ci, col.type(), std::move(display));
  }
  const TempTable& t = (*shapes_)[ti];
  ExprPtr v = Expr::column(int(ti), ci, boolean ? Type::integer() : col.type(), display);
  if (boolean || t.type(size_t(ci)).id == TypeId::kBoolean) v = as_boolean(v);
  if (!t.nullable(size_t(ci))) return v;
  // NULL where the hidden indicator says so (temp_table.h).
  const int flag = t.null_flag[size_t(ci)];
  ExprPtr is_null = Expr::compare(CompareOp::kEq, Expr::column(int(ti), flag, Type::integer(), display + " is null"),
                                  Expr::constant(Value::integer(1)));
  auto e = std::make_shared<Expr>(*Expr::case_when({is_null, Expr::constant(Value::null(v->type)), v}, true, v->type));
  e->name = std::move(display);
  return e;
}

ExprPtr ExpressionBinder::bind_column(const std::string& qualifier, const std::string& name, const std::string& text) {
  // Closest column name among the given tables, for "did you mean".
  auto suggestion = [&](size_t begin, size_t end) -> std::string {
    std::string best;
    size_t best_d = 3;
    for (size_t i = begin; i < end; i++)
      for (auto& c : tables_[i].table->columns()) {
        if (find_column(i, c->name()) < 0) continue;  // a hidden column
        size_t d = edit_distance(to_lower(name), to_lower(c->name()));
        if (d < best_d && d < name.size()) best_d = d, best = c->name();
      }
    if (!best.empty()) return "; did you mean '" + best + "'?";
    if (visible_ == 0) return " (the query has no FROM clause)";
    std::string list;
    for (size_t i = begin; i < end; i++) list += (list.empty() ? "" : ", ") + tables_[i].alias;
    return (end - begin == 1 ? " in table " : " in tables ") + list;
  };

  if (!qualifier.empty()) {
    size_t ti = tables_.size();
    for (size_t i = 0; i < tables_.size(); i++)
      if (iequals(tables_[i].alias, qualifier)) {
        ti = i;
        break;
      }
    // A FROM item of an outer join: a column of the joined rows.
    for (size_t i = 0; ti == tables_.size() && shapes_ && i < shapes_->size() && i < tables_.size(); i++)
      if ((*shapes_)[i].has_qualifier(qualifier)) {
        if (i >= visible_)
          fail(ErrorKind::kBinder, "table '{}' cannot be referenced in {} before it is joined, in '{}'", qualifier,
               clause_, text);
        const int ci = (*shapes_)[i].find_qualified(qualifier, name);
        if (ci < 0) fail(ErrorKind::kBinder, "unknown column '{}'", text);
        return column_expr(i, ci, qualifier + "." + (*shapes_)[i].name(size_t(ci)));
      }
    if (ti == tables_.size()) {
      for (auto& t : tables_)
        if (iequals(t.name, qualifier))
          fail(ErrorKind::kBinder, "unknown table or alias '{}' in '{}' (table '{}' is aliased as '{}')", qualifier,
               text, t.name, t.alias);
      fail(ErrorKind::kBinder, "unknown table or alias '{}' in '{}'", qualifier, text);
    }
    if (ti >= visible_)
      fail(ErrorKind::kBinder, "table '{}' cannot be referenced in {} before it is joined, in '{}'", qualifier,
           clause_, text);
    const Table& t = *tables_[ti].table;
    int ci = find_column(ti, name);
    if (ci < 0) fail(ErrorKind::kBinder, "unknown column '{}'{}", text, suggestion(ti, ti + 1));
    return column_expr(ti, ci, tables_[ti].alias + "." + t.column(size_t(ci)).name());
  }

  std::vector<std::pair<size_t, int>> matches;
  for (size_t i = 0; i < visible_; i++) {
    int ci = find_column(i, name);
    if (ci == -2) fail(ErrorKind::kBinder, "column reference '{}' is ambiguous (columns of two joined tables)", text);
    if (ci >= 0) matches.emplace_back(i, ci);
  }
  if (matches.empty()) {
    for (size_t i = visible_; i < tables_.size(); i++)
      if (find_column(i, name) >= 0)
        fail(ErrorKind::kBinder, "column '{}' of table '{}' cannot be referenced in {} before the table is joined",
             text, tables_[i].alias, clause_);
    fail(ErrorKind::kBinder, "unknown column '{}'{}", text, suggestion(0, visible_));
  }
  if (matches.size() > 1) {
    std::string list;
    for (auto& [ti, ci] : matches)
      list += (list.empty() ? "" : ", ") + tables_[ti].alias + "." + tables_[ti].table->column(size_t(ci)).name();
    fail(ErrorKind::kBinder, "column reference '{}' is ambiguous (candidates: {})", text, list);
  }
  auto [ti, ci] = matches[0];
  return column_expr(ti, ci, shapes_ && ti < shapes_->size() ? (*shapes_)[ti].name(size_t(ci))
                                                             : tables_[ti].table->column(size_t(ci)).name());
}

ExprPtr ExpressionBinder::bind(const AstExpr& e) {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  switch (e.kind) {
    case AstKind::kColumn: return bind_column(e.qualifier, e.name, e.to_string());
    case AstKind::kStar:
      fail(ErrorKind::kBinder, "'{}' is only allowed as a select list item or in count(*)", e.to_string());
    case AstKind::kLiteral: return Expr::constant(e.value);
    case AstKind::kUnary: return bind_unary(e);
    case AstKind::kBinary: return bind_binary(e);
    case AstKind::kBetween: return bind_between(e);
    case AstKind::kInList: return e.subquery ? bind_in_subquery(e) : bind_in_list(e);
    case AstKind::kSubquery: return bind_subquery(e);
    case AstKind::kLike: return bind_like(e);
    case AstKind::kIsNull: return Expr::is_null(bind(*e.children[0]), e.negated);
    case AstKind::kFunction: return bind_function(e);
    case AstKind::kCase: return bind_case(e);
    case AstKind::kCast: return bind_cast(e);
    case AstKind::kInterval:
      fail(ErrorKind::kBinder, "'{}': an INTERVAL can only be added to or subtracted from a DATE", e.to_string());
  }
  fail(ErrorKind::kInternal, "unknown AST node");
}

ExprPtr ExpressionBinder::bind_unary(const AstExpr& e) {
  ExprPtr c = bind(*e.children[0]);
  if (e.op == "not") {
    return Expr::logical_not(as_predicate(c, "argument of NOT"));
  }
  auto t = negate_type(c->type);
  if (!t) fail(ErrorKind::kBinder, "cannot negate {} in '{}'", c->type.to_string(), e.to_string());
  if (is_constant(c))
    if (auto v = fold_negate(c->value, *t)) return Expr::constant(*v);
  return Expr::negate(c, *t);
}

ExprPtr ExpressionBinder::bind_binary(const AstExpr& e) {
  if (e.op == "and" || e.op == "or") return bind_logical(e);
  if (e.op == "||") return bind_concat(e);
  if ((e.op == "+" || e.op == "-") &&
      (e.children[0]->kind == AstKind::kInterval || e.children[1]->kind == AstKind::kInterval))
    return bind_interval_arith(e);
  ExprPtr l = bind(*e.children[0]);
  ExprPtr r = bind(*e.children[1]);
  if (auto op = arith_op(e.op)) return make_arith(*op, l, r, e);
  if (auto op = compare_op(e.op)) return make_compare(*op, l, r, e);
  fail(ErrorKind::kInternal, "unknown operator '{}'", e.op);
}

ExprPtr ExpressionBinder::make_arith(ArithOp op, ExprPtr l, ExprPtr r, const AstExpr& whole) {
  auto t = arithmetic_type(op, l->type, r->type);
  if (!t) {
    if (op == ArithOp::kMul && l->type.id == TypeId::kDecimal && r->type.id == TypeId::kDecimal)
      fail(ErrorKind::kBinder, "DECIMAL multiplication needs scale {} > 18 in '{}'", l->type.scale + r->type.scale,
           whole.to_string());
    fail(ErrorKind::kBinder, "cannot apply '{}' to {} and {} in '{}'", whole.op, l->type.to_string(),
         r->type.to_string(), whole.to_string());
  }
  if (is_constant(l) && is_constant(r))
    if (auto v = fold_arithmetic(op, l->value, r->value, *t)) return Expr::constant(*v);
  // An untyped NULL operand takes the other side's type (INTEGER next to a DATE).
  auto null_type = [](const Type& other) { return other.id == TypeId::kDate ? Type::integer() : other; };
  l = typed_null(l, null_type(r->type));
  r = typed_null(r, null_type(l->type));
  return Expr::arith(op, l, r, *t);
}

void ExpressionBinder::coerce_for_compare(ExprPtr& a, ExprPtr& b, const AstExpr& whole) {
  a = typed_null(a, b->type);
  b = typed_null(b, a->type);
  auto to_date = [&](ExprPtr& s) {
    if (!is_constant(s) || s->type.id != TypeId::kVarchar) return;
    auto v = cast_constant(s->value, Type::date());
    if (!v)
      fail(ErrorKind::kBinder, "invalid DATE {} in '{}' (expected 'YYYY-MM-DD')", constant_text(s->value),
           whole.to_string());
    s = Expr::constant(*v);
  };
  if (a->type.id == TypeId::kDate) to_date(b);
  if (b->type.id == TypeId::kDate) to_date(a);
  // TIMESTAMP against a string literal (read as a TIMESTAMP) or a DATE (its midnight).
  auto to_timestamp = [&](ExprPtr& s) {
    if (s->type.id == TypeId::kDate) s = convert(s, Type::timestamp(), whole);
    if (!is_constant(s) || s->type.id != TypeId::kVarchar) return;
    auto v = cast_constant(s->value, Type::timestamp());
    if (!v)
      fail(ErrorKind::kBinder, "invalid TIMESTAMP {} in '{}' (expected 'YYYY-MM-DD HH:MM:SS[.ffffff]')",
           constant_text(s->value), whole.to_string());
    s = Expr::constant(*v);
  };
  if (a->type.id == TypeId::kTimestamp) to_timestamp(b);
  if (b->type.id == TypeId::kTimestamp) to_timestamp(a);
  // BOOLEAN against a string literal ('t', 'false', ...).
  auto to_boolean = [&](ExprPtr& s) {
    if (!is_constant(s) || s->type.id != TypeId::kVarchar) return;
    auto v = cast_constant(s->value, Type::boolean());
    if (!v) fail(ErrorKind::kBinder, "invalid BOOLEAN {} in '{}'", constant_text(s->value), whole.to_string());
    s = Expr::constant(*v);
  };
  if (a->type.id == TypeId::kBoolean) to_boolean(b);
  if (b->type.id == TypeId::kBoolean) to_boolean(a);
  if (!comparable(a->type, b->type))
    fail(ErrorKind::kBinder, "cannot compare {} and {} in '{}'", a->type.to_string(), b->type.to_string(),
         whole.to_string());
}

ExprPtr ExpressionBinder::make_compare(CompareOp op, ExprPtr l, ExprPtr r, const AstExpr& whole) {
  coerce_for_compare(l, r, whole);
  return Expr::compare(op, l, r);
}

ExprPtr ExpressionBinder::bind_logical(const AstExpr& e) {
  std::vector<const AstExpr*> operands;
  flatten(e, e.op, operands);
  std::vector<ExprPtr> children;
  const char* what = e.op == "and" ? "argument of AND" : "argument of OR";
  for (auto* o : operands) {
    ExprPtr c = bind(*o);
    require_boolean(c, what);
    children.push_back(typed_null(c, Type::boolean()));
  }
  return Expr::conjunction(e.op == "and", std::move(children));
}

ExprPtr ExpressionBinder::bind_between(const AstExpr& e) {
  ExprPtr x = bind(*e.children[0]);
  ExprPtr lo = bind(*e.children[1]);
  ExprPtr hi = bind(*e.children[2]);
  coerce_for_compare(x, lo, e);
  coerce_for_compare(x, hi, e);
  return Expr::between(x, lo, hi, e.negated);
}

TempTable ExpressionBinder::run_subquery(const AstExpr& e, bool exists) {
  if (!subqueries_) fail(ErrorKind::kBinder, "subqueries are not allowed in {}: '{}'", clause_, e.to_string());
  TempTable t = subqueries_(*e.subquery, exists);
  if (!exists && t.columns() != 1)
    fail(ErrorKind::kBinder, "subquery must return only one column, it returns {}: '{}'", t.columns(), e.to_string());
  return t;
}

// Uncorrelated subqueries run once, before the outer block: a scalar one becomes its
// value (NULL when it has no row), EXISTS a boolean constant.
ExprPtr ExpressionBinder::bind_subquery(const AstExpr& e) {
  const bool exists = e.op == "exists";
  TempTable t = run_subquery(e, exists);
  if (exists) return Expr::constant(Value::boolean((t.rows() > 0) != e.negated));
  if (t.rows() > 1)
    fail(ErrorKind::kExecution, "more than one row returned by a subquery used as an expression: '{}'",
         e.to_string());
  return Expr::constant(t.rows() == 0 ? Value::null(t.type(0)) : t.value(0, 0));
}

namespace {

// The distinct values of a result column stored as integers (keys, dates, decimals),
// sorted, each as its stored word and a row holding it: by sorting the stored words
// instead of hashing each value's byte key, so a subquery of millions of keys binds in
// a fraction of the time. False for other columns.
bool distinct_int_rows(const TempTable& t, std::vector<std::pair<int64_t, uint64_t>>& out, bool& has_null) {
  const Type type = t.type(0);
  const Column& col = t.table->column(0);
  const bool ints = type.id == TypeId::kInteger || type.id == TypeId::kBigint || type.id == TypeId::kDate ||
                    type.id == TypeId::kTimestamp || type.id == TypeId::kDecimal;
  if (!ints || col.type().id != type.id || col.has_nulls()) return false;
  const Column* flag = t.nullable(0) ? &t.table->column(size_t(t.null_flag[0])) : nullptr;
  std::vector<std::pair<int64_t, uint64_t>> rows;  // stored word, a row holding it
  rows.reserve(t.rows());
  for (uint64_t r = 0; r < t.rows(); r++) {
    if (flag && flag->get_int(r) != 0) {
      has_null = true;
      continue;
    }
    rows.emplace_back(col.get_int(r), r);
  }
  // Grouped results (a DISTINCT key list) mostly come in ascending key order already.
  if (!std::is_sorted(rows.begin(), rows.end())) std::sort(rows.begin(), rows.end());
  for (size_t i = 0; i < rows.size(); i++)
    if (i == 0 || rows[i].first != rows[i - 1].first) out.push_back(rows[i]);
  return true;
}

// The distinct non-NULL values of column 0 of `t`, each once; has_null when a NULL came.
std::vector<Value> distinct_values(const TempTable& t, bool& has_null) {
  std::vector<Value> seen;
  std::vector<std::pair<int64_t, uint64_t>> rows;
  if (distinct_int_rows(t, rows, has_null)) {
    for (auto& [word, r] : rows) seen.push_back(t.value(r, 0));
    return seen;
  }
  std::unordered_set<std::string> keys;
  for (uint64_t r = 0; r < t.rows(); r++) {
    Value v = t.value(r, 0);
    if (v.is_null()) {
      has_null = true;
      continue;
    }
    std::string key;
    append_value_key(key, v);
    if (keys.insert(std::move(key)).second) seen.push_back(std::move(v));
  }
  return seen;
}

}  // namespace

// x IN (SELECT ...) is x IN (its distinct values). Many integer-like keys (a
// decorrelated semi or anti join's) become one KeySet; fewer, or other types, a list
// of constants. The executors test either as a set, NULLs as SQL says.
ExprPtr ExpressionBinder::bind_in_subquery(const AstExpr& e) {
  ExprPtr x = bind(*e.children[0]);
  TempTable t = run_subquery(e, false);
  if (auto s = bind_key_set(x, t, e)) return s;
  bool has_null = false;
  std::vector<Value> seen = distinct_values(t, has_null);
  if (has_null) seen.push_back(Value::null(t.type(0)));
  if (seen.empty()) {  // IN of no rows is false, NOT IN true, whatever x is (even NULL)
    ExprPtr xi = x, item = Expr::constant(Value::null(t.type(0)));
    coerce_for_compare(xi, item, e);
    return Expr::constant(Value::boolean(e.negated));
  }
  std::vector<ExprPtr> items;
  for (Value& v : seen) {
    ExprPtr item = Expr::constant(v);
    ExprPtr xi = x;
    coerce_for_compare(xi, item, e);
    if (x->type.id == TypeId::kNull) x = xi;
    items.push_back(item);
  }
  return Expr::in_list(x, std::move(items), e.negated);
}

// x IN <the subquery's keys> when they are KeySet::kMinKeys or more integer-like words
// that x compares with directly; null otherwise (the caller binds a constant list).
ExprPtr ExpressionBinder::bind_key_set(const ExprPtr& x, const TempTable& t, const AstExpr& e) {
  plan::KeySetPtr set = key_set_of_column(t);
  if (!set || set->size() < plan::KeySet::kMinKeys) return nullptr;
  ExprPtr xi = x, item = Expr::constant(Value::null(t.type(0)));
  coerce_for_compare(xi, item, e);  // a NULL x takes the set's type; a DATE x becomes a TIMESTAMP
  if (!set->comparable_with(xi->type)) return nullptr;
  return Expr::in_key_set(xi, std::move(set), e.negated);
}

ExprPtr ExpressionBinder::bind_in_list(const AstExpr& e) {
  ExprPtr x = bind(*e.children[0]);
  std::vector<ExprPtr> items;
  bool all_constant = true;
  for (size_t i = 1; i < e.children.size(); i++) {
    ExprPtr item = bind(*e.children[i]);
    ExprPtr xi = x;
    coerce_for_compare(xi, item, e);
    if (x->type.id == TypeId::kNull) x = xi;  // a NULL operand takes the items' type
    all_constant = all_constant && is_constant(item);
    items.push_back(item);
  }
  if (all_constant) return Expr::in_list(x, std::move(items), e.negated);
  // The IR's IN list holds constants only; x IN (a, y) is x = a OR x = y, and
  // x NOT IN (a, y) is x <> a AND x <> y (the same under three-valued logic).
  std::vector<ExprPtr> terms;
  for (auto& item : items) terms.push_back(Expr::compare(e.negated ? CompareOp::kNe : CompareOp::kEq, x, item));
  return Expr::conjunction(e.negated, std::move(terms));
}

ExprPtr ExpressionBinder::bind_like(const AstExpr& e) {
  ExprPtr x = bind(*e.children[0]);
  ExprPtr p = bind(*e.children[1]);
  if (x->type.id != TypeId::kVarchar && x->type.id != TypeId::kNull)
    fail(ErrorKind::kBinder, "LIKE needs a VARCHAR operand, not {}, in '{}'", x->type.to_string(), e.to_string());
  if (!is_constant(p) || p->type.id != TypeId::kVarchar || p->value.is_null())
    fail(ErrorKind::kBinder, "LIKE pattern must be a string constant in '{}'", e.to_string());
  x = typed_null(x, Type::varchar());
  if (e.op == "ilike")  // case-insensitive: both sides lower-cased (PostgreSQL lower-cases by its locale too)
    return Expr::like(lower_of(x), lower_pattern(p->value.as_string()), e.negated);
  return Expr::like(x, p->value.as_string(), e.negated);
}

ExprPtr ExpressionBinder::bind_function(const AstExpr& e) {
  if (e.name == "list_value")  // [a, b, ...]: raydb has no LIST type
    fail(ErrorKind::kNotImplemented, "a list such as '{}' is only allowed as the quantiles of a whole SELECT item "
         "(quantile_disc(x, [0.25, 0.5]) gives one column per quantile)", e.to_string());
  if (e.over) {
    if (!windows_) fail(ErrorKind::kBinder, "window functions are not allowed in {}: '{}'", clause_, e.to_string());
    if (inside_aggregate_)
      fail(ErrorKind::kBinder, "aggregate function calls cannot contain window function calls: '{}'", e.to_string());
    return windows_(e);
  }
  if (e.within_group && !order_stat_function(e.name))
    fail(ErrorKind::kBinder, "WITHIN GROUP is only allowed with percentile_disc and percentile_cont, in '{}'",
         e.to_string());
  if (order_stat_function(e.name)) return bind_order_stat(e);
  if (auto f = aggregate_function(e.name)) return bind_aggregate(e, *f);
  if (auto s = bind_scalar_function(e)) return *s;
  fail(ErrorKind::kBinder,
       "unknown function '{}' in '{}' (aggregates: count, sum, min, max, avg, median, quantile_disc, quantile_cont, "
       "percentile_disc, percentile_cont, kth_smallest, kth_largest; scalar: coalesce, nullif, abs, round, floor, "
       "ceil, extract, date_part, date_trunc, year, month, day, quarter, substr, substring, length, upper, lower, "
       "trim, ltrim, rtrim, btrim, concat, replace, position, strpos, instr)",
       e.name, e.to_string());
}

// k of kth_smallest / kth_largest given per group: constants, arithmetic and aggregates
// other than order statistics (evaluated after them), no row-level columns.
static void check_k_expression(const plan::Expr& e, const std::vector<plan::AggregateExpr>& aggs, const std::string& text) {
  if (e.kind == plan::ExprKind::kColumnRef)
    fail(ErrorKind::kBinder, "k of '{}' may use constants and aggregates such as count(*), not the column {}", text,
         e.to_string());
  if (e.kind == plan::ExprKind::kAggregateRef && aggs[size_t(e.ref_index)].func == AggFunc::kOrderStat)
    fail(ErrorKind::kBinder, "k of '{}' cannot use another order statistic", text);
  for (const auto& c : e.children) check_k_expression(*c, aggs, text);
}

// median(x); quantile_disc|quantile_cont|quantile(x, q); percentile_disc|
// percentile_cont(q) WITHIN GROUP (ORDER BY x); kth_smallest|kth_largest(x, k).
ExprPtr ExpressionBinder::bind_order_stat(const AstExpr& e) {
  const std::string text = e.to_string();
  const std::string& n = e.name;
  const bool percentile = n == "percentile_disc" || n == "percentile_cont";
  if (percentile && !e.within_group) fail(ErrorKind::kBinder, "{} needs WITHIN GROUP (ORDER BY ...): '{}'", n, text);
  if (!percentile && e.within_group) fail(ErrorKind::kBinder, "{} takes no WITHIN GROUP: '{}'", n, text);
  if (e.within_desc) fail(ErrorKind::kNotImplemented, "WITHIN GROUP (ORDER BY ... DESC) is not supported yet: '{}'", text);
  const size_t want = n == "median" ? 1 : 2;
  if (e.star_arg || e.children.size() != want)
    fail(ErrorKind::kBinder, "{} takes {} in '{}'", n,
         percentile ? "one quantile and WITHIN GROUP (ORDER BY x)" : want == 1 ? "exactly one argument" : "two arguments",
         text);
  if (!aggregates_) fail(ErrorKind::kBinder, "aggregate functions are not allowed in {}: '{}'", clause_, text);
  if (inside_aggregate_) fail(ErrorKind::kBinder, "aggregate function calls cannot be nested: '{}'", text);
  const AstExpr& arg_ast = percentile ? *e.children[1] : *e.children[0];
  plan::OrderStatSpec spec;
  if (n == "median") {
    spec.kind = plan::OrderStatSpec::Kind::kCont;
  } else {
    ExprPtr p = bind(percentile ? *e.children[0] : *e.children[1]);
    if (n == "kth_smallest" || n == "kth_largest") {
      spec.kind = n == "kth_smallest" ? plan::OrderStatSpec::Kind::kKthSmallest : plan::OrderStatSpec::Kind::kKthLargest;
      if (p->type.id != TypeId::kInteger && p->type.id != TypeId::kBigint)
        fail(ErrorKind::kBinder, "k of '{}' must be an integer (a constant, or an expression of aggregates such as "
             "count(*) / 2)", text);
      if (is_constant(p)) {
        if (p->value.is_null() || p->value.as_int() < 1)
          fail(ErrorKind::kBinder, "k of '{}' must be an integer constant of at least 1", text);
        spec.k = p->value.as_int();
      } else {
        check_k_expression(*p, *aggregates_, text);
        spec.k_expr = p;
      }
    } else {
      const bool cont = n == "quantile_cont" || n == "percentile_cont";
      spec.kind = cont ? plan::OrderStatSpec::Kind::kCont : plan::OrderStatSpec::Kind::kDisc;
      std::tie(spec.q_integral, spec.q_scaling) = quantile_fraction(p, e);
    }
  }
  inside_aggregate_ = true;
  ExprPtr arg = typed_null(bind(arg_ast), Type::integer());
  inside_aggregate_ = false;
  const TypeId id = arg->type.id;
  // Interpolating between strings has no meaning: over VARCHAR the middle is discrete
  // (DuckDB's median of VARCHAR is its lower middle value).
  if (spec.kind == plan::OrderStatSpec::Kind::kCont && id == TypeId::kVarchar && n == "median")
    spec.kind = plan::OrderStatSpec::Kind::kDisc;
  Type type = arg->type;
  const bool orderable = id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDecimal ||
                         id == TypeId::kDouble || id == TypeId::kDate || id == TypeId::kVarchar;
  if (!orderable) fail(ErrorKind::kBinder, "cannot apply {} to {} in '{}'", n, arg->type.to_string(), text);
  if (spec.kind == plan::OrderStatSpec::Kind::kCont) {
    if (id == TypeId::kVarchar) fail(ErrorKind::kBinder, "cannot interpolate VARCHAR values in '{}' (use quantile_disc)", text);
    if (id == TypeId::kDate)
      fail(ErrorKind::kNotImplemented, "'{}' interpolates dates into a TIMESTAMP, which raydb does not have yet (use "
           "quantile_disc)", text);
    if (id != TypeId::kDecimal) type = Type::float64();
  }
  for (size_t i = 0; i < aggregates_->size(); i++) {  // the same aggregate written twice is computed once
    const auto& a = (*aggregates_)[i];
    if (a.func == AggFunc::kOrderStat && a.distinct == e.distinct && plan::same_expr(*a.arg, *arg) &&
        a.order_stat.kind == spec.kind && a.order_stat.k == spec.k &&
        (a.order_stat.k_expr ? spec.k_expr && plan::same_expr(*a.order_stat.k_expr, *spec.k_expr) : !spec.k_expr) &&
        a.order_stat.q_integral * spec.q_scaling == spec.q_integral * a.order_stat.q_scaling)
      return Expr::aggregate_ref(int(i), a.type, a.name);
  }
  plan::AggregateExpr a;
  a.func = AggFunc::kOrderStat;
  a.arg = arg;
  a.distinct = e.distinct;
  a.order_stat = spec;
  a.type = type;
  a.name = text;
  aggregates_->push_back(a);
  return Expr::aggregate_ref(int(aggregates_->size() - 1), a.type, a.name);
}

ExprPtr ExpressionBinder::bind_aggregate(const AstExpr& e, AggFunc f) {
  std::string text = e.to_string();
  if (!aggregates_) fail(ErrorKind::kBinder, "aggregate functions are not allowed in {}: '{}'", clause_, text);
  if (inside_aggregate_) fail(ErrorKind::kBinder, "aggregate function calls cannot be nested: '{}'", text);
  ExprPtr arg;
  if (e.star_arg) {
    if (f != AggFunc::kCount) fail(ErrorKind::kBinder, "{}(*) is not allowed; only count takes *", e.name);
    f = AggFunc::kCountStar;
  } else {
    if (e.children.size() != 1)
      fail(ErrorKind::kBinder, "{} takes exactly one argument, got {} in '{}'", e.name, e.children.size(), text);
    inside_aggregate_ = true;
    arg = bind(*e.children[0]);
    inside_aggregate_ = false;
    const bool boolean_only = e.name == "bool_and" || e.name == "bool_or";
    arg = typed_null(arg, boolean_only ? Type::boolean() : Type::integer());
    if (boolean_only && arg->type.id != TypeId::kBoolean)
      fail(ErrorKind::kBinder, "{} needs a BOOLEAN argument, not {}, in '{}'", e.name, arg->type.to_string(), text);
  }
  Type arg_type = arg ? arg->type : Type::null();
  auto t = aggregate_type(f, arg_type);
  if (!t) fail(ErrorKind::kBinder, "cannot apply {} to {} in '{}'", e.name, arg_type.to_string(), text);
  // The same aggregate written twice is computed once.
  for (size_t i = 0; i < aggregates_->size(); i++) {
    const auto& a = (*aggregates_)[i];
    bool same_arg = (!a.arg && !arg) || (a.arg && arg && plan::same_expr(*a.arg, *arg));
    if (a.func == f && a.distinct == e.distinct && same_arg) return Expr::aggregate_ref(int(i), a.type, a.name);
  }
  plan::AggregateExpr a;
  a.func = f;
  a.arg = arg;
  a.distinct = e.distinct;
  a.type = *t;
  a.name = text;
  aggregates_->push_back(a);
  return Expr::aggregate_ref(int(aggregates_->size() - 1), a.type, a.name);
}

ExprPtr ExpressionBinder::convert(ExprPtr e, const Type& to, const AstExpr& whole) {
  if (e->type == to) return e;
  if (is_constant(e)) {
    auto v = cast_constant(e->value, to);
    if (!v)
      fail(ErrorKind::kBinder, "cannot cast {} to {} in '{}'", constant_text(e->value), to.to_string(),
           whole.to_string());
    return Expr::constant(*v);
  }
  if (!castable(e->type, to))
    fail(ErrorKind::kBinder, "cannot cast {} to {} in '{}'",
         e->type.to_string(), to.to_string(), whole.to_string());
  return Expr::cast(e, to);
}

ExprPtr ExpressionBinder::bind_case(const AstExpr& e) {
  size_t i = 0;
  ExprPtr operand;
  if (e.has_operand) operand = bind(*e.children[i++]);
  size_t end = e.children.size() - (e.has_else ? 1 : 0);
  std::vector<ExprPtr> conditions, values;
  for (; i + 1 < end; i += 2) {
    ExprPtr c = bind(*e.children[i]);
    if (operand) {
      c = make_compare(CompareOp::kEq, operand, c, e);  // CASE x WHEN v is CASE WHEN x = v
    } else {
      require_boolean(c, "argument of CASE/WHEN");
      c = typed_null(c, Type::boolean());
    }
    conditions.push_back(c);
    values.push_back(bind(*e.children[i + 1]));
  }
  if (e.has_else) values.push_back(bind(*e.children.back()));
  Type result = Type::null();
  for (auto& v : values) {
    auto t = common_type(result, v->type);
    if (!t)
      fail(ErrorKind::kBinder, "CASE types {} and {} cannot be matched in '{}'", result.to_string(),
           v->type.to_string(), e.to_string());
    result = *t;
  }
  std::vector<ExprPtr> children;
  for (size_t k = 0; k < conditions.size(); k++) {
    children.push_back(conditions[k]);
    children.push_back(convert(values[k], result, e));
  }
  if (e.has_else) children.push_back(convert(values.back(), result, e));
  return Expr::case_when(std::move(children), e.has_else, result);
}

ExprPtr ExpressionBinder::bind_cast(const AstExpr& e) {
  ExprPtr c = bind(*e.children[0]);
  return convert(c, e.cast_type, e);
}

}  // namespace raydb::sql
