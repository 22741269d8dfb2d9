// Binding of scalar functions, || and DATE +- INTERVAL (ExpressionBinder's members
// declared in expression_binder.h). Result types follow PostgreSQL where raydb has
// its types; where PostgreSQL answers NUMERIC or TIMESTAMP they follow DuckDB
// (extract -> BIGINT; round keeps integer types; date_trunc and DATE +- INTERVAL of a
// DATE stay DATE; of a TIMESTAMP they are TIMESTAMP). Calls over constants are evaluated when the
// query runs, like calls over columns, except DATE +- INTERVAL of a constant date:
// folded here so `d < DATE '1995-01-01' + INTERVAL '3' MONTH` stays a column
// compared with a constant (a range predicate, on every backend).
#include <algorithm>
#include <map>

#include "common/error.h"
#include "common/utf8_text.h"
#include "sql/expression_binder.h"
#include "sql/type_rules.h"
#include "storage/calendar.h"
#include "storage/table.h"

namespace raydb::sql {

using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::ScalarFunc;

namespace {

bool is_null_type(const ExprPtr& e) { return e->type.id == TypeId::kNull; }

const std::map<std::string, ScalarFunc>& date_fields() {
  static const std::map<std::string, ScalarFunc> m = {
      {"year", ScalarFunc::kYear},       {"month", ScalarFunc::kMonth},          {"day", ScalarFunc::kDay},
      {"quarter", ScalarFunc::kQuarter}, {"dow", ScalarFunc::kDayOfWeek},        {"doy", ScalarFunc::kDayOfYear},
      {"dayofweek", ScalarFunc::kDayOfWeek}, {"dayofyear", ScalarFunc::kDayOfYear}};
  return m;
}

}  // namespace

// Arguments of `e`, bound and checked against its arity.
std::vector<ExprPtr> ExpressionBinder::bind_arguments(const AstExpr& e, size_t min_args, size_t max_args) {
  if (e.star_arg || e.distinct || e.within_group)
    fail(ErrorKind::kBinder, "{} is not an aggregate: '{}'", e.name, e.to_string());
  if (e.children.size() < min_args || e.children.size() > max_args) {
    const std::string want = min_args == max_args ? std::to_string(min_args)
                             : max_args == size_t(-1) ? "at least " + std::to_string(min_args)
                                                      : std::to_string(min_args) + " or " + std::to_string(max_args);
    fail(ErrorKind::kBinder, "{} takes {} argument{}, got {} in '{}'", e.name, want, want == "1" ? "" : "s",
         e.children.size(), e.to_string());
  }
  std::vector<ExprPtr> args;
  for (auto& c : e.children) args.push_back(bind(*c));
  return args;
}

// Argument i as `want` (VARCHAR, BIGINT for positions, DATE): NULLs take the type,
// INTEGER widens to BIGINT; anything else is an error naming the argument.
ExprPtr ExpressionBinder::argument_as(const AstExpr& e, ExprPtr a, size_t i, TypeId want) {
  if (is_null_type(a)) return Expr::constant(Value::null(want == TypeId::kBigint ? Type::bigint()
                                                         : want == TypeId::kDate ? Type::date() : Type::varchar()));
  const bool ok = a->type.id == want || (want == TypeId::kBigint && a->type.id == TypeId::kInteger);
  if (!ok) {
    const char* wanted = want == TypeId::kVarchar ? "VARCHAR" : want == TypeId::kDate ? "DATE" : "an integer";
    fail(ErrorKind::kBinder, "argument {} of {} must be {}, not {}, in '{}'", i + 1, e.name, wanted,
         a->type.to_string(), e.to_string());
  }
  return want == TypeId::kBigint ? convert(a, Type::bigint(), e) : a;
}

std::optional<ExprPtr> ExpressionBinder::bind_scalar_function(const AstExpr& e) {
  const std::string& n = e.name;
  if (n == "coalesce" || n == "nullif") return bind_conditional(e);
  if (n == "abs" || n == "round" || n == "floor" || n == "ceil" || n == "ceiling") return bind_numeric(e);
  if (n == "extract" || n == "date_part" || n == "date_trunc" || date_fields().count(n)) return bind_date(e);
  static const std::map<std::string, ScalarFunc> strings = {
      {"substr", ScalarFunc::kSubstr},   {"substring", ScalarFunc::kSubstr},       {"length", ScalarFunc::kLength},
      {"char_length", ScalarFunc::kLength}, {"character_length", ScalarFunc::kLength}, {"upper", ScalarFunc::kUpper},
      {"lower", ScalarFunc::kLower},     {"btrim", ScalarFunc::kBtrim},           {"ltrim", ScalarFunc::kLtrim},
      {"rtrim", ScalarFunc::kRtrim},     {"concat", ScalarFunc::kConcatSkipNull}, {"replace", ScalarFunc::kReplace},
      {"strpos", ScalarFunc::kStrpos},   {"instr", ScalarFunc::kStrpos},          {"position", ScalarFunc::kStrpos}};
  auto it = strings.find(n);
  if (it == strings.end()) return std::nullopt;
  return bind_string(e, it->second);
}

// coalesce(a, b, ...) = CASE WHEN a IS NOT NULL THEN a ... ELSE last END and
// nullif(a, b) = CASE WHEN a = b THEN NULL ELSE a END, as PostgreSQL defines them.
ExprPtr ExpressionBinder::bind_conditional(const AstExpr& e) {
  const bool coalesce = e.name == "coalesce";
  std::vector<ExprPtr> args = bind_arguments(e, coalesce ? 1 : 2, coalesce ? size_t(-1) : 2);
  if (!coalesce) {
    ExprPtr a = args[0], b = args[1];
    ExprPtr eq = make_compare(CompareOp::kEq, a, b, e);
    if (is_null_type(a)) return Expr::constant(Value::null());
    return Expr::case_when({eq, Expr::constant(Value::null(a->type)), a}, true, a->type);
  }
  Type result = Type::null();
  for (auto& a : args) {
    auto t = common_type(result, a->type);
    if (!t)
      fail(ErrorKind::kBinder, "coalesce types {} and {} cannot be matched in '{}'", result.to_string(),
           a->type.to_string(), e.to_string());
    result = *t;
  }
  if (result.id == TypeId::kNull) return Expr::constant(Value::null());
  auto typed = [&](const ExprPtr& a) {
    return convert(is_null_type(a) ? Expr::constant(Value::null(result)) : a, result, e);
  };
  std::vector<ExprPtr> children;
  ExprPtr last;
  for (size_t i = 0; i + 1 < args.size() && !last; i++) {
    ExprPtr v = typed(args[i]);
    if (v->kind == ExprKind::kConstant) {
      if (!v->value.is_null()) last = v;  // a non-NULL constant ends the list
      continue;
    }
    children.push_back(Expr::is_null(v, true));
    children.push_back(v);
  }
  if (!last) last = typed(args.back());
  if (children.empty()) return last;
  children.push_back(last);
  return Expr::case_when(std::move(children), true, result);
}

ExprPtr ExpressionBinder::bind_numeric(const AstExpr& e) {
  const bool round = e.name == "round";
  std::vector<ExprPtr> args = bind_arguments(e, 1, round ? 2 : 1);
  ExprPtr x = args[0];
  if (is_null_type(x)) x = Expr::constant(Value::null(Type::integer()));
  const Type& t = x->type;
  if (!t.is_numeric())
    fail(ErrorKind::kBinder, "{} needs a numeric argument, not {}, in '{}'", e.name, t.to_string(), e.to_string());
  ScalarFunc f = e.name == "abs" ? ScalarFunc::kAbs : round ? ScalarFunc::kRound
                 : e.name == "floor" ? ScalarFunc::kFloor : ScalarFunc::kCeil;
  Type result = t;
  std::vector<ExprPtr> children = {x};
  if (round) {
    int64_t digits = 0;
    if (args.size() > 1) {
      const ExprPtr& d = args[1];
      if (d->kind != ExprKind::kConstant || (!d->type.is_integral() && d->type.id != TypeId::kNull))
        fail(ErrorKind::kBinder, "the digits of round must be an integer constant in '{}'", e.to_string());
      if (d->value.is_null()) return Expr::constant(Value::null(t));
      digits = std::clamp<int64_t>(d->value.as_int(), -1000, 1000);
    }
    if (t.id == TypeId::kDecimal) result = Type::decimal(t.precision, int(std::clamp<int64_t>(digits, 0, t.scale)));
    children.push_back(Expr::constant(Value::bigint(digits)));
  } else if (f != ScalarFunc::kAbs) {
    if (t.id == TypeId::kDecimal) result = Type::decimal(t.precision, 0);
    else if (t.id != TypeId::kDouble) result = Type::float64();  // PostgreSQL and DuckDB: floor(int) is double
  }
  return Expr::function(f, std::move(children), result);
}

ExprPtr ExpressionBinder::bind_date(const AstExpr& e) {
  const std::string& n = e.name;
  const bool by_name = date_fields().count(n) > 0;  // year(d), month(d), ...
  std::vector<ExprPtr> args = bind_arguments(e, by_name ? 1 : 2, by_name ? 1 : 2);
  ExprPtr arg = args.back();
  const bool ts = arg->type.id == TypeId::kTimestamp;
  ScalarFunc f = ScalarFunc::kYear;
  bool as_timestamp = false;  // date_trunc of a TIMESTAMP to a month, quarter or year
  if (by_name) {
    f = date_fields().at(n);
  } else {
    const ExprPtr& field = args[0];
    if (field->kind != ExprKind::kConstant || field->type.id != TypeId::kVarchar)
      fail(ErrorKind::kBinder, "the field of {} must be a string constant in '{}'", n, e.to_string());
    const std::string name = to_lower(field->value.as_string());
    if (n == "date_trunc") {
      static const std::map<std::string, ScalarFunc> trunc = {
          {"year", ScalarFunc::kTruncYear}, {"quarter", ScalarFunc::kTruncQuarter}, {"month", ScalarFunc::kTruncMonth}};
      static const std::map<std::string, int64_t> below_day = {
          {"hour", 3600000000LL}, {"minute", 60000000LL}, {"second", 1000000LL}};
      if (ts && below_day.count(name))
        return Expr::function(ScalarFunc::kTruncMicros, {arg, Expr::constant(Value::bigint(below_day.at(name)))},
                              Type::timestamp());
      if (ts && name == "day") return convert(convert(arg, Type::date(), e), Type::timestamp(), e);
      if (name == "day") return argument_as(e, arg, 1, TypeId::kDate);  // a DATE is its own day
      auto it = trunc.find(name);
      if (it == trunc.end())
        fail(ErrorKind::kBinder, "unsupported date_trunc unit '{}' in '{}' (supported: year, quarter, month, day{})",
             name, e.to_string(), ts ? ", hour, minute, second" : "");
      f = it->second;
      as_timestamp = ts;
    } else {
      static const std::map<std::string, ScalarFunc> time_fields = {
          {"hour", ScalarFunc::kHour}, {"minute", ScalarFunc::kMinute}, {"second", ScalarFunc::kSecond}};
      if (ts && time_fields.count(name)) return Expr::function(time_fields.at(name), {arg}, Type::bigint());
      auto it = date_fields().find(name);
      if (it == date_fields().end())
        fail(ErrorKind::kBinder, "unsupported field '{}' in '{}' (supported: year, quarter, month, day, dow, doy{})",
             name, e.to_string(), ts ? ", hour, minute, second" : "");
      f = it->second;
    }
  }
  // Fields of a day and above read the timestamp's date.
  ExprPtr d = ts ? convert(arg, Type::date(), e) : argument_as(e, arg, args.size() - 1, TypeId::kDate);
  const bool trunc = f == ScalarFunc::kTruncYear || f == ScalarFunc::kTruncQuarter || f == ScalarFunc::kTruncMonth;
  ExprPtr r = Expr::function(f, {d}, trunc ? Type::date() : Type::bigint());
  return as_timestamp ? convert(r, Type::timestamp(), e) : r;
}

ExprPtr ExpressionBinder::bind_string(const AstExpr& e, ScalarFunc f) {
  const std::string& n = e.name;
  std::vector<ExprPtr> args;
  switch (f) {
    case ScalarFunc::kSubstr:
      args = bind_arguments(e, 2, 3);
      args[0] = argument_as(e, args[0], 0, TypeId::kVarchar);
      for (size_t i = 1; i < args.size(); i++) args[i] = argument_as(e, args[i], i, TypeId::kBigint);
      break;
    case ScalarFunc::kBtrim:
    case ScalarFunc::kLtrim:
    case ScalarFunc::kRtrim:
      args = bind_arguments(e, 1, 2);
      if (args.size() == 1) args.push_back(Expr::constant(Value::varchar(" ")));
      for (size_t i = 0; i < 2; i++) args[i] = argument_as(e, args[i], i, TypeId::kVarchar);
      break;
    case ScalarFunc::kConcatSkipNull:
      args = bind_arguments(e, 1, size_t(-1));
      for (auto& a : args) a = as_text(a, e);
      break;
    default: {
      const size_t count = f == ScalarFunc::kReplace ? 3 : f == ScalarFunc::kStrpos ? 2 : 1;
      args = bind_arguments(e, count, count);
      for (size_t i = 0; i < count; i++) args[i] = argument_as(e, args[i], i, TypeId::kVarchar);
      if (n == "position") std::swap(args[0], args[1]);  // position(needle IN s)
    }
  }
  const bool counts = f == ScalarFunc::kLength || f == ScalarFunc::kStrpos;
  return Expr::function(f, std::move(args), counts ? Type::integer() : Type::varchar());
}

// A value as text for || and concat: VARCHAR as is, other types by their output text.
ExprPtr ExpressionBinder::as_text(ExprPtr a, const AstExpr& whole) {
  if (is_null_type(a)) return Expr::constant(Value::null(Type::varchar()));
  return a->type.id == TypeId::kVarchar ? a : convert(a, Type::varchar(), whole);
}

// a || b || c as one concatenation (NULL if any operand is NULL). As in PostgreSQL,
// one operand must be a string; the others are converted to text.
ExprPtr ExpressionBinder::bind_concat(const AstExpr& e) {
  std::vector<const AstExpr*> operands, pending = {&e};
  while (!pending.empty()) {  // left to right, without recursion
    const AstExpr* x = pending.back();
    pending.pop_back();
    if (x->kind == AstKind::kBinary && x->op == "||") {
      pending.push_back(x->children[1].get());
      pending.push_back(x->children[0].get());
    } else {
      operands.push_back(x);
    }
  }
  std::vector<ExprPtr> args;
  bool any_text = false;
  for (auto* o : operands) {
    args.push_back(bind(*o));
    any_text = any_text || args.back()->type.id == TypeId::kVarchar || is_null_type(args.back());
  }
  if (!any_text)
    fail(ErrorKind::kBinder, "cannot apply '||' to {} and {} in '{}' (one operand must be VARCHAR)",
         args[0]->type.to_string(), args[1]->type.to_string(), e.to_string());
  for (auto& a : args) a = as_text(a, e);
  return Expr::function(ScalarFunc::kConcat, std::move(args), Type::varchar());
}

// DATE +- INTERVAL: days are DATE +- INTEGER; months and years add calendar months,
// clamped to the month's end (2024-01-31 + 1 month = 2024-02-29), as PostgreSQL does.
// TIMESTAMP +- INTERVAL adds microseconds (days and below) or calendar months; a DATE
// plus hours, minutes or seconds is its midnight's TIMESTAMP plus them (PostgreSQL).
ExprPtr ExpressionBinder::bind_interval_arith(const AstExpr& e) {
  const bool left_interval = e.children[0]->kind == AstKind::kInterval;
  const AstExpr& iv = *e.children[left_interval ? 0 : 1];
  if (e.children[0]->kind == AstKind::kInterval && e.children[1]->kind == AstKind::kInterval)
    fail(ErrorKind::kNotImplemented, "INTERVAL arithmetic is not supported: '{}'", e.to_string());
  if (left_interval && e.op == "-")
    fail(ErrorKind::kBinder, "cannot subtract a DATE from an INTERVAL in '{}'", e.to_string());
  ExprPtr d = bind(*e.children[left_interval ? 1 : 0]);
  const bool below_day = iv.name == "hour" || iv.name == "minute" || iv.name == "second";
  if (is_null_type(d)) d = Expr::constant(Value::null(below_day ? Type::timestamp() : Type::date()));
  if (d->type.id == TypeId::kDate && below_day) d = convert(d, Type::timestamp(), e);
  if (d->type.id != TypeId::kDate && d->type.id != TypeId::kTimestamp)
    fail(ErrorKind::kBinder,
         "cannot apply '{}' to {} and INTERVAL in '{}' (intervals apply to DATE and TIMESTAMP values)", e.op,
         d->type.to_string(), e.to_string());
  const int64_t n = e.op == "-" ? -iv.value.as_int() : iv.value.as_int();
  if (d->type.id == TypeId::kTimestamp && iv.name != "month" && iv.name != "year") {
    const int64_t unit = iv.name == "day" ? kMicrosPerDay : iv.name == "hour" ? 3600000000LL
                         : iv.name == "minute" ? 60000000LL : 1000000LL;
    int64_t micros = 0, folded = 0;
    if (__builtin_mul_overflow(n, unit, &micros)) fail(ErrorKind::kBinder, "interval out of range in '{}'", e.to_string());
    if (d->kind == ExprKind::kConstant && !d->value.is_null() &&
        !__builtin_add_overflow(d->value.as_int(), micros, &folded))
      return Expr::constant(Value::timestamp(folded));  // keeps `ts < constant + INTERVAL` a range predicate
    return Expr::function(ScalarFunc::kAddMicros, {d, Expr::constant(Value::bigint(micros))}, Type::timestamp());
  }
  if (iv.name == "day") {
    if (n < INT32_MIN || n > INT32_MAX) fail(ErrorKind::kBinder, "interval out of range in '{}'", e.to_string());
    return make_arith(plan::ArithOp::kAdd, d, Expr::constant(Value::integer(int32_t(n))), e);
  }
  const int64_t months = iv.name == "year" ? n * 12 : n;
  if (d->type.id == TypeId::kTimestamp)
    return Expr::function(ScalarFunc::kAddMonthsTs, {d, Expr::constant(Value::bigint(months))}, Type::timestamp());
  int32_t folded = 0;
  if (d->kind == ExprKind::kConstant && !d->value.is_null() && add_months(int32_t(d->value.as_int()), months, folded))
    return Expr::constant(Value::date(folded));
  return Expr::function(ScalarFunc::kAddMonths, {d, Expr::constant(Value::bigint(months))}, Type::date());
}

std::string ExpressionBinder::lower_pattern(const std::string& pattern) { return utf8::change_case(pattern, false); }

ExprPtr ExpressionBinder::lower_of(ExprPtr x) { return Expr::function(ScalarFunc::kLower, {x}, Type::varchar()); }

}  // namespace raydb::sql
