#pragma once
// Bound, typed expressions of the logical plan. Produced by sql/binder, consumed by
// plan/ and the executors. Immutable and shared (ExprPtr).
//
// Domains: an expression either reads base columns (kColumnRef; WHERE, GROUP BY keys,
// aggregate arguments, SELECT items of a non-aggregate query) or, after
// aggregation, reads group keys and aggregate results (kGroupRef, kAggregateRef;
// HAVING, SELECT and ORDER BY items of an aggregate query). kOutputRef refers to a
// SELECT item by position (ORDER BY alias / ordinal).
#include <memory>
#include <string>
#include <vector>

#include "plan/logical/key_set.h"
#include "raydb/types.h"
#include "raydb/value.h"

namespace raydb::plan {

// Typing rules (the binder applies them; executors rely on them):
// - Integral arithmetic is exact: INTEGER op INTEGER -> BIGINT for + - * (cannot
//   overflow); with a BIGINT operand: + - -> BIGINT (overflow is an execution error),
//   * -> HUGEINT; with a HUGEINT operand -> HUGEINT (overflow is an error).
//   / and % on integral types truncate toward zero (as SQLite and PostgreSQL);
//   INTEGER / INTEGER -> BIGINT, as for *, so -2^31 / -1 = 2^31 like -2^31 * -1
//   (PostgreSQL's int4 raises "integer out of range" on both; raydb widens both);
//   % keeps the wider operand type; x / 0 is an error.
// - DECIMAL(p1,s1) +- DECIMAL(p2,s2) -> DECIMAL(18, max(s1,s2)); * -> DECIMAL(18,
//   s1+s2) (error when s1+s2 > 18); / -> DOUBLE. Integral operands act as DECIMAL(18,0).
//   Decimal overflow beyond 18 digits is an execution error.
// - Any DOUBLE operand -> DOUBLE arithmetic.
// - DATE + INTEGER, DATE - INTEGER -> DATE; DATE - DATE -> INTEGER (days).
// - Comparisons: numeric types compare exactly across types (scales aligned; a DOUBLE
//   operand compares as double); VARCHAR with VARCHAR; DATE with DATE (a string
//   constant compared with a DATE is cast to DATE by the binder, or it is an error).
// - NULL: arithmetic and comparisons with NULL give NULL; AND/OR/NOT are three-valued;
//   WHERE and HAVING keep rows whose predicate is true.

enum class ExprKind {
  kColumnRef,     // table_index, column_index
  kConstant,      // value (typed; NULL constant has type kNull or the target type)
  kGroupRef,      // index into LogicalQuery::group_keys
  kAggregateRef,  // index into LogicalQuery::aggregates
  kOutputRef,     // index into LogicalQuery::select (ORDER BY only)
  kWindowRef,     // index into LogicalQuery::windows (SELECT and ORDER BY of a windowed query)
  kArith,         // op in {kAdd, kSub, kMul, kDiv, kMod}; children[0], children[1]
  kNegate,        // children[0]
  kCompare,       // op in {kEq, kNe, kLt, kLe, kGt, kGe}; children[0], children[1]
  kAnd,           // children (2 or more)
  kOr,            // children (2 or more)
  kNot,           // children[0]
  kBetween,       // children[0] BETWEEN children[1] AND children[2] (negated => NOT BETWEEN)
  kInList,        // children[0] IN (children[1..]) (negated => NOT IN); list items are constants
  kInKeySet,      // children[0] IN key_set (negated => NOT IN): a subquery's distinct keys as one array
  kLike,          // children[0] LIKE pattern (constant string); negated => NOT LIKE
  kIsNull,        // children[0] IS NULL (negated => IS NOT NULL)
  kCast,          // children[0] cast to `type`
  kCase,          // CASE WHEN c0 THEN v0 ... [ELSE e] END: children = c0,v0,c1,v1,...,[e]; has_else
  kFunction,      // scalar function `func` over children (arguments already of the types it takes)
};

// Scalar functions (kFunction). Arguments and result types are fixed by the binder
// (sql/function_binder.cpp); each is NULL-strict (NULL in, NULL out) unless noted.
// coalesce and nullif are bound as the CASE expressions PostgreSQL defines them by.
enum class ScalarFunc {
  kAbs,        // (x) same type; INTEGER/BIGINT overflow is an error
  kRound,      // (x, n constant INTEGER): half away from zero; DECIMAL result scale min(s, max(n, 0))
  kFloor,      // (x) DECIMAL -> DECIMAL(p, 0), DOUBLE -> DOUBLE
  kCeil,       // (x) as kFloor
  kYear, kMonth, kDay, kQuarter, kDayOfWeek, kDayOfYear,  // (DATE) -> BIGINT; dow: Sunday = 0
  kTruncYear, kTruncQuarter, kTruncMonth,                 // date_trunc (DATE) -> DATE
  kAddMonths,  // (DATE, INTEGER months) -> DATE, clamped to the month's last day
  kHour, kMinute, kSecond,  // (TIMESTAMP) -> BIGINT (second: whole seconds, as DuckDB's extract)
  kTruncMicros,   // (TIMESTAMP, BIGINT unit in micros: hour, minute, second) -> TIMESTAMP, floored
  kAddMicros,     // (TIMESTAMP, BIGINT micros) -> TIMESTAMP; overflow is an error
  kAddMonthsTs,   // (TIMESTAMP, BIGINT months) -> TIMESTAMP, the day clamped like kAddMonths
  kSubstr,     // (s, start[, count]) character positions from 1, PostgreSQL's window rule
  kLength,     // (s) -> INTEGER, characters
  kUpper, kLower,
  kBtrim, kLtrim, kRtrim,  // (s, characters to strip)
  kConcat,     // s1 || s2 || ...: NULL if any is NULL
  kConcatSkipNull,  // concat(s1, ...): NULL arguments are skipped; never NULL
  kReplace,    // (s, from, to); from = '' leaves s unchanged
  kStrpos,     // (s, needle) -> INTEGER character position, 0 when absent
};
const char* scalar_func_name(ScalarFunc f);

enum class ArithOp { kAdd, kSub, kMul, kDiv, kMod };
enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind;
  Type type;  // result type (BOOLEAN for predicates)

  int table_index = -1;   // kColumnRef: index into LogicalQuery::tables
  int column_index = -1;  // kColumnRef: column in that table
  int ref_index = -1;     // kGroupRef / kAggregateRef / kOutputRef
  Value value;            // kConstant; kLike: the pattern (VARCHAR)
  ArithOp arith_op = ArithOp::kAdd;
  CompareOp compare_op = CompareOp::kEq;
  bool negated = false;   // kBetween, kInList, kLike, kIsNull
  bool has_else = false;  // kCase
  ScalarFunc func = ScalarFunc::kAbs;  // kFunction
  KeySetPtr key_set;                   // kInKeySet
  std::vector<ExprPtr> children;
  std::string name;  // display text (e.g. "sum(lo_revenue)"), for EXPLAIN and column headers

  Expr() = default;
  Expr(const Expr&) = default;
  Expr& operator=(const Expr&) = default;
  // Frees a deep tree (a chain of 30,000 terms) without recursing once per level.
  ~Expr();

  // Builders used by the binder and tests.
  static ExprPtr column(int table, int column, Type type, std::string name);
  static ExprPtr constant(Value v);
  static ExprPtr group_ref(int index, Type type, std::string name);
  static ExprPtr aggregate_ref(int index, Type type, std::string name);
  static ExprPtr output_ref(int index, Type type, std::string name);
  static ExprPtr window_ref(int index, Type type, std::string name);
  static ExprPtr arith(ArithOp op, ExprPtr l, ExprPtr r, Type type);
  static ExprPtr negate(ExprPtr e, Type type);
  static ExprPtr compare(CompareOp op, ExprPtr l, ExprPtr r);
  static ExprPtr conjunction(bool is_and, std::vector<ExprPtr> children);
  static ExprPtr logical_not(ExprPtr e);
  static ExprPtr between(ExprPtr e, ExprPtr lo, ExprPtr hi, bool negated);
  static ExprPtr in_list(ExprPtr e, std::vector<ExprPtr> items, bool negated);
  // x [NOT] IN set; x's type compares with the set's words (KeySet::comparable_with).
  static ExprPtr in_key_set(ExprPtr e, KeySetPtr set, bool negated);
  static ExprPtr like(ExprPtr e, std::string pattern, bool negated);
  static ExprPtr is_null(ExprPtr e, bool negated);
  static ExprPtr cast(ExprPtr e, Type to);
  // children = c0, v0, c1, v1, ..., [else]; the values already have result type `type`.
  static ExprPtr case_when(std::vector<ExprPtr> children, bool has_else, Type type);
  static ExprPtr function(ScalarFunc f, std::vector<ExprPtr> args, Type type);

  // Text form for EXPLAIN and debugging.
  std::string to_string() const;
};

// The set of tables (indices into LogicalQuery::tables) an expression reads.
uint64_t tables_used(const Expr& e);  // bit mask; at most 64 tables per query
// Whether e, a post-aggregation expression (HAVING, an ORDER BY item), reads aggregates
// and constants only (no group key, output, column or window); with `read` (one flag per
// aggregate of the query) marks the aggregates it reads, and an index outside it fails.
bool reads_only_aggregates(const Expr& e, std::vector<bool>* read = nullptr);
// Whether e reads any aggregate (an ExprKind::kAggregateRef anywhere in it).
bool reads_aggregate(const Expr& e);
// Structural equality: same kind, type, references, constants, operators and
// children; display names are ignored. The binder matches GROUP BY keys with it.
bool same_expr(const Expr& a, const Expr& b);
// Splits nested ANDs into conjuncts. An OR's conjuncts common to every branch become
// conjuncts, and an OR across tables adds the one-table filters it implies (the OR
// stays); for WHERE and inner-join ON, where only true keeps a row.
void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out);

}  // namespace raydb::plan
