#include "plan/logical/expression.h"

#include "common/expression_depth.h"

#include <fmt/format.h>

namespace raydb::plan {

namespace {
std::shared_ptr<Expr> make(ExprKind kind, Type type) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = type;
  return e;
}
const char* arith_text(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd: return "+";
    case ArithOp::kSub: return "-";
    case ArithOp::kMul: return "*";
    case ArithOp::kDiv: return "/";
    case ArithOp::kMod: return "%";
  }
  return "?";
}
const char* compare_text(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "<>";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
  }
  return "?";
}
}  // namespace

Expr::~Expr() {
  // Children whose last owner is this tree are taken apart here, one at a time. They
  // are only const to their readers; the last owner may empty them.
  std::vector<ExprPtr> pending = std::move(children);
  while (!pending.empty()) {
    ExprPtr c = std::move(pending.back());
    pending.pop_back();
    if (c && c.use_count() == 1)
      for (ExprPtr& g : const_cast<Expr&>(*c).children) pending.push_back(std::move(g));
  }
}

ExprPtr Expr::column(int table, int column, Type type, std::string name) {
  auto e = make(ExprKind::kColumnRef, type);
  e->table_index = table;
  e->column_index = column;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::constant(Value v) {
  auto e = make(ExprKind::kConstant, v.type());
  e->value = std::move(v);
  return e;
}
ExprPtr Expr::group_ref(int index, Type type, std::string name) {
  auto e = make(ExprKind::kGroupRef, type);
  e->ref_index = index;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::aggregate_ref(int index, Type type, std::string name) {
  auto e = make(ExprKind::kAggregateRef, type);
  e->ref_index = index;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::output_ref(int index, Type type, std::string name) {
  auto e = make(ExprKind::kOutputRef, type);
  e->ref_index = index;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::window_ref(int index, Type type, std::string name) {
  auto e = make(ExprKind::kWindowRef, type);
  e->ref_index = index;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::arith(ArithOp op, ExprPtr l, ExprPtr r, Type type) {
  auto e = make(ExprKind::kArith, type);
  e->arith_op = op;
  e->children = {std::move(l), std::move(r)};
  return e;
}
ExprPtr Expr::negate(ExprPtr x, Type type) {
  auto e = make(ExprKind::kNegate, type);
  e->children = {std::move(x)};
  return e;
}
ExprPtr Expr::compare(CompareOp op, ExprPtr l, ExprPtr r) {
  auto e = make(ExprKind::kCompare, Type::boolean());
  e->compare_op = op;
  e->children = {std::move(l), std::move(r)};
  return e;
}
ExprPtr Expr::conjunction(bool is_and, std::vector<ExprPtr> children) {
  if (children.size() == 1) return children[0];
  auto e = make(is_and ? ExprKind::kAnd : ExprKind::kOr, Type::boolean());
  e->children = std::move(children);
  return e;
}
ExprPtr Expr::logical_not(ExprPtr x) {
  auto e = make(ExprKind::kNot, Type::boolean());
  e->children = {std::move(x)};
  return e;
}
ExprPtr Expr::between(ExprPtr x, ExprPtr lo, ExprPtr hi, bool negated) {
  auto e = make(ExprKind::kBetween, Type::boolean());
  e->children = {std::move(x), std::move(lo), std::move(hi)};
  e->negated = negated;
  return e;
}
ExprPtr Expr::in_list(ExprPtr x, std::vector<ExprPtr> items, bool negated) {
  auto e = make(ExprKind::kInList, Type::boolean());
  e->children.push_back(std::move(x));
  for (auto& i : items) e->children.push_back(std::move(i));
  e->negated = negated;
  return e;
}
ExprPtr Expr::in_key_set(ExprPtr x, KeySetPtr set, bool negated) {
  auto e = make(ExprKind::kInKeySet, Type::boolean());
  e->children = {std::move(x)};
  e->key_set = std::move(set);
  e->negated = negated;
  return e;
}
ExprPtr Expr::like(ExprPtr x, std::string pattern, bool negated) {
  auto e = make(ExprKind::kLike, Type::boolean());
  e->children = {std::move(x)};
  e->value = Value::varchar(std::move(pattern));
  e->negated = negated;
  return e;
}
ExprPtr Expr::is_null(ExprPtr x, bool negated) {
  auto e = make(ExprKind::kIsNull, Type::boolean());
  e->children = {std::move(x)};
  e->negated = negated;
  return e;
}
ExprPtr Expr::cast(ExprPtr x, Type to) {
  auto e = make(ExprKind::kCast, to);
  e->children = {std::move(x)};
  return e;
}
ExprPtr Expr::case_when(std::vector<ExprPtr> children, bool has_else, Type type) {
  auto e = make(ExprKind::kCase, type);
  e->children = std::move(children);
  e->has_else = has_else;
  return e;
}

ExprPtr Expr::function(ScalarFunc f, std::vector<ExprPtr> args, Type type) {
  auto e = make(ExprKind::kFunction, type);
  e->func = f;
  e->children = std::move(args);
  return e;
}

const char* scalar_func_name(ScalarFunc f) {
  switch (f) {
    case ScalarFunc::kAbs: return "abs";
    case ScalarFunc::kRound: return "round";
    case ScalarFunc::kFloor: return "floor";
    case ScalarFunc::kCeil: return "ceil";
    case ScalarFunc::kYear: return "year";
    case ScalarFunc::kMonth: return "month";
    case ScalarFunc::kDay: return "day";
    case ScalarFunc::kQuarter: return "quarter";
    case ScalarFunc::kDayOfWeek: return "dayofweek";
    case ScalarFunc::kDayOfYear: return "dayofyear";
    case ScalarFunc::kTruncYear: return "trunc_year";
    case ScalarFunc::kTruncQuarter: return "trunc_quarter";
    case ScalarFunc::kTruncMonth: return "trunc_month";
    case ScalarFunc::kAddMonths: return "add_months";
    case ScalarFunc::kHour: return "hour";
    case ScalarFunc::kMinute: return "minute";
    case ScalarFunc::kSecond: return "second";
    case ScalarFunc::kTruncMicros: return "trunc_micros";
    case ScalarFunc::kAddMicros: return "add_micros";
    case ScalarFunc::kAddMonthsTs: return "add_months";
    case ScalarFunc::kSubstr: return "substr";
    case ScalarFunc::kLength: return "length";
    case ScalarFunc::kUpper: return "upper";
    case ScalarFunc::kLower: return "lower";
    case ScalarFunc::kBtrim: return "btrim";
    case ScalarFunc::kLtrim: return "ltrim";
    case ScalarFunc::kRtrim: return "rtrim";
    case ScalarFunc::kConcat: return "||";
    case ScalarFunc::kConcatSkipNull: return "concat";
    case ScalarFunc::kReplace: return "replace";
    case ScalarFunc::kStrpos: return "strpos";
  }
  return "?";
}

std::string Expr::to_string() const {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  auto child = [&](size_t i) { return children[i]->to_string(); };
  switch (kind) {
    case ExprKind::kColumnRef: return name.empty() ? fmt::format("#{}.{}", table_index, column_index) : name;
    case ExprKind::kConstant:
      return value.type().id == TypeId::kVarchar ? "'" + value.to_string() + "'" : value.to_string();
    case ExprKind::kGroupRef: return name.empty() ? fmt::format("group#{}", ref_index) : name;
    case ExprKind::kAggregateRef: return name.empty() ? fmt::format("agg#{}", ref_index) : name;
    case ExprKind::kOutputRef: return name.empty() ? fmt::format("out#{}", ref_index) : name;
    case ExprKind::kWindowRef: return name.empty() ? fmt::format("window#{}", ref_index) : name;
    case ExprKind::kArith: return fmt::format("({} {} {})", child(0), arith_text(arith_op), child(1));
    case ExprKind::kNegate: return fmt::format("(-{})", child(0));
    case ExprKind::kCompare: return fmt::format("({} {} {})", child(0), compare_text(compare_op), child(1));
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      std::string s = "(";
      for (size_t i = 0; i < children.size(); i++) {
        if (i) s += kind == ExprKind::kAnd ? " AND " : " OR ";
        s += child(i);
      }
      return s + ")";
    }
    case ExprKind::kNot: return fmt::format("(NOT {})", child(0));
    case ExprKind::kBetween:
      return fmt::format("({} {}BETWEEN {} AND {})", child(0), negated ? "NOT " : "", child(1), child(2));
    case ExprKind::kInList: {
      std::string s = fmt::format("({} {}IN (", child(0), negated ? "NOT " : "");
      for (size_t i = 1; i < children.size(); i++) s += (i > 1 ? ", " : "") + child(i);
      return s + "))";
    }
    case ExprKind::kInKeySet:
      return fmt::format("({} {}IN {})", child(0), negated ? "NOT " : "", key_set->describe());
    case ExprKind::kLike: return fmt::format("({} {}LIKE '{}')", child(0), negated ? "NOT " : "", value.to_string());
    case ExprKind::kIsNull: return fmt::format("({} IS {}NULL)", child(0), negated ? "NOT " : "");
    case ExprKind::kCast: return fmt::format("CAST({} AS {})", child(0), type.to_string());
    case ExprKind::kCase: {
      std::string s = "CASE";
      size_t pairs = (children.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; i++) s += fmt::format(" WHEN {} THEN {}", child(2 * i), child(2 * i + 1));
      if (has_else) s += " ELSE " + children.back()->to_string();
      return s + " END";
    }
    case ExprKind::kFunction: {
      std::string s;
      for (size_t i = 0; i < children.size(); i++) {
        if (func == ScalarFunc::kConcat) s += i ? " || " + child(i) : child(i);
        else s += (i ? ", " : "") + child(i);
      }
      return func == ScalarFunc::kConcat ? "(" + s + ")" : fmt::format("{}({})", scalar_func_name(func), s);
    }
  }
  return "?";
}

uint64_t tables_used(const Expr& e) {
  ExpressionDepthGuard depth_guard;
  uint64_t m = e.kind == ExprKind::kColumnRef ? (uint64_t(1) << e.table_index) : 0;
  for (auto& c : e.children) m |= tables_used(*c);
  return m;
}

bool reads_only_aggregates(const Expr& e, std::vector<bool>* read) {
  ExpressionDepthGuard depth_guard;
  switch (e.kind) {
    case ExprKind::kColumnRef:
    case ExprKind::kGroupRef:
    case ExprKind::kOutputRef:
    case ExprKind::kWindowRef: return false;
    case ExprKind::kAggregateRef:
      if (!read) break;
      if (e.ref_index < 0 || size_t(e.ref_index) >= read->size()) return false;
      (*read)[size_t(e.ref_index)] = true;
      break;
    default: break;
  }
  for (auto& c : e.children)
    if (!reads_only_aggregates(*c, read)) return false;
  return true;
}

bool reads_aggregate(const Expr& e) {
  ExpressionDepthGuard depth_guard;
  if (e.kind == ExprKind::kAggregateRef) return true;
  for (auto& c : e.children)
    if (reads_aggregate(*c)) return true;
  return false;
}

bool same_expr(const Expr& a, const Expr& b) {
  ExpressionDepthGuard depth_guard;
  if (a.kind != b.kind || !(a.type == b.type) || a.children.size() != b.children.size()) return false;
  switch (a.kind) {
    case ExprKind::kColumnRef:
      if (a.table_index != b.table_index || a.column_index != b.column_index) return false;
      break;
    case ExprKind::kConstant:
    case ExprKind::kLike:
      if (!(a.value == b.value)) return false;
      break;
    case ExprKind::kInKeySet:
      // Each binding of a subquery makes its own set (GROUP BY 1 binds the select
      // expression again): equal when their keys are, as IN lists compare constants.
      if (a.key_set != b.key_set &&
          (!a.key_set || !b.key_set || !(a.key_set->type() == b.key_set->type()) ||
           a.key_set->has_null() != b.key_set->has_null() || a.key_set->words() != b.key_set->words()))
        return false;
      break;
    case ExprKind::kGroupRef:
    case ExprKind::kAggregateRef:
    case ExprKind::kOutputRef:
    case ExprKind::kWindowRef:
      if (a.ref_index != b.ref_index) return false;
      break;
    case ExprKind::kArith:
      if (a.arith_op != b.arith_op) return false;
      break;
    case ExprKind::kCompare:
      if (a.compare_op != b.compare_op) return false;
      break;
    case ExprKind::kFunction:
      if (a.func != b.func) return false;
      break;
    default: break;
  }
  if (a.negated != b.negated || a.has_else != b.has_else) return false;
  for (size_t i = 0; i < a.children.size(); i++)
    if (!same_expr(*a.children[i], *b.children[i])) return false;
  return true;
}

namespace {

void split_disjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  ExpressionDepthGuard depth_guard;
  if (e->kind == ExprKind::kOr) {
    for (auto& c : e->children) split_disjuncts(c, out);
  } else {
    out.push_back(e);
  }
}

bool contains_same(const std::vector<ExprPtr>& v, const Expr& x) {
  for (auto& e : v)
    if (same_expr(*e, x)) return true;
  return false;
}

// (A and B) or (A and C) -> A and (B or C): conjuncts common to every branch of an
// OR become conjuncts of their own, so a join key repeated in each branch (TPC-H
// Q19) drives a hash join instead of a filtered cross product. Distributivity and
// absorption (A or (A and C) = A) hold in SQL's three-valued logic, so the result
// is the same. False (nothing appended) when the branches share no conjunct.
bool factor_disjunction(const ExprPtr& e, std::vector<ExprPtr>& out) {
  std::vector<ExprPtr> branches;
  split_disjuncts(e, branches);
  std::vector<std::vector<ExprPtr>> terms(branches.size());
  for (size_t i = 0; i < branches.size(); i++) split_conjuncts(branches[i], terms[i]);
  std::vector<ExprPtr> common;
  for (auto& t : terms[0]) {
    bool everywhere = !contains_same(common, *t);
    for (size_t i = 1; i < terms.size() && everywhere; i++) everywhere = contains_same(terms[i], *t);
    if (everywhere) common.push_back(t);
  }
  if (common.empty()) return false;
  std::vector<ExprPtr> rest_branches;
  for (auto& branch : terms) {
    std::vector<ExprPtr> rest;
    for (auto& t : branch)
      if (!contains_same(common, *t)) rest.push_back(t);
    if (rest.empty()) {  // absorbed: this branch is the common part alone
      rest_branches.clear();
      break;
    }
    rest_branches.push_back(Expr::conjunction(true, std::move(rest)));
  }
  for (auto& c : common) out.push_back(c);
  if (!rest_branches.empty()) out.push_back(Expr::conjunction(false, std::move(rest_branches)));
  return true;
}

// Whether e tests columns against constants in a way that cannot raise an error
// (comparisons, BETWEEN, IN lists, LIKE, IS NULL and AND/OR/NOT of them): such a test
// may run on rows the statement would not have evaluated it on.
bool is_plain_test(const Expr& e) {
  ExpressionDepthGuard depth_guard;
  switch (e.kind) {
    case ExprKind::kColumnRef:
    case ExprKind::kConstant: return true;
    case ExprKind::kCompare:
    case ExprKind::kBetween:
    case ExprKind::kInList:
    case ExprKind::kInKeySet:
    case ExprKind::kLike:
    case ExprKind::kIsNull:
    case ExprKind::kAnd:
    case ExprKind::kOr:
    case ExprKind::kNot:
      for (auto& c : e.children)
        if (!is_plain_test(*c)) return false;
      return true;
    default: return false;
  }
}

void flatten_and(const ExprPtr& e, std::vector<ExprPtr>& out) {
  ExpressionDepthGuard depth_guard;
  if (e->kind == ExprKind::kAnd) {
    for (auto& c : e->children) flatten_and(c, out);
  } else {
    out.push_back(e);
  }
}

// An OR across tables implies, per table t whose columns every branch tests on their
// own, the OR of those tests: (n1 = 'FRANCE' and n2 = 'GERMANY') or (n1 = 'GERMANY'
// and n2 = 'FRANCE') implies n1 in ('FRANCE', 'GERMANY') and the same of n2 (TPC-H
// Q7). A row for which the OR is true makes some branch true, so that branch's tests
// of t and the implied filter are true too: appended as conjuncts beside the OR, they
// drop no row the OR keeps, and become table filters that the joins' semi-join
// reduction carries to the tables joined to t.
void append_implied_table_filters(const ExprPtr& e, std::vector<ExprPtr>& out) {
  const uint64_t tables = tables_used(*e);
  if (__builtin_popcountll(tables) < 2) return;  // a one-table OR is a table filter already
  std::vector<ExprPtr> branches;
  split_disjuncts(e, branches);
  std::vector<std::vector<ExprPtr>> terms(branches.size());
  for (size_t i = 0; i < branches.size(); i++) flatten_and(branches[i], terms[i]);
  for (int t = 0; t < 64; t++) {
    const uint64_t bit = uint64_t(1) << t;
    if (!(tables & bit)) continue;
    std::vector<ExprPtr> per_branch;
    for (auto& branch : terms) {
      std::vector<ExprPtr> own;
      for (auto& c : branch)
        if (tables_used(*c) == bit && is_plain_test(*c)) own.push_back(c);
      if (own.empty()) break;  // a branch that does not test t alone: nothing implied
      per_branch.push_back(Expr::conjunction(true, std::move(own)));
    }
    if (per_branch.size() == terms.size()) out.push_back(Expr::conjunction(false, std::move(per_branch)));
  }
}

}  // namespace

void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  ExpressionDepthGuard depth_guard;
  if (e->kind == ExprKind::kAnd) {
    for (auto& c : e->children) split_conjuncts(c, out);
  } else if (e->kind == ExprKind::kOr) {
    const size_t first = out.size();
    if (!factor_disjunction(e, out)) out.push_back(e);
    const size_t last = out.size();
    for (size_t i = first; i < last; i++) {
      const ExprPtr disjunction = out[i];  // out grows below
      if (disjunction->kind == ExprKind::kOr) append_implied_table_filters(disjunction, out);
    }
  } else {
    out.push_back(e);
  }
}

}  // namespace raydb::plan
