#pragma once
// The logical plan of one SELECT block, as the binder produces it: the tables it
// reads, its conjunctive filter (WHERE and JOIN ... ON, split at AND), optional
// grouping and aggregation, HAVING, the SELECT list, DISTINCT, ORDER BY and LIMIT.
//
// Evaluation order is SQL's: FROM x WHERE -> GROUP BY / aggregates -> HAVING ->
// SELECT -> DISTINCT -> ORDER BY -> OFFSET/LIMIT. The physical planner decides join
// order, join methods, predicate placement and backend.
#include <cstdint>
#include <string>
#include <vector>

#include "plan/logical/expression.h"
#include "storage/table.h"

namespace raydb::plan {

struct TableRef {
  std::string name;   // catalog name
  std::string alias;  // as written (alias or name)
  TablePtr table;
};

// kOrderStat: median, quantile_disc/quantile_cont, percentile_disc/percentile_cont
// WITHIN GROUP, kth_smallest/kth_largest; AggregateExpr::order_stat says which.
enum class AggFunc { kCountStar, kCount, kSum, kMin, kMax, kAvg, kOrderStat };

// What an order statistic selects, as DuckDB and PostgreSQL define it (n = the
// group's non-NULL values, ascending): kDisc the value at 1-based position
// max(1, ceil(n q)); kCont the interpolation at 0-based position (n - 1) q (median is
// kCont with q = 1/2; over VARCHAR it is discrete); kKthSmallest / kKthLargest the
// k-th value from either end (k outside [1, n]: NULL). Empty groups give NULL.
struct OrderStatSpec {
  enum class Kind { kDisc, kCont, kKthSmallest, kKthLargest };
  Kind kind = Kind::kCont;
  int64_t q_integral = 1, q_scaling = 2;  // q = integral / scaling, in [0, 1]
  int64_t k = 1;
  // kKthSmallest / kKthLargest with k given per group by an expression over other
  // aggregates of the query (e.g. count(*) / 2), evaluated after them like HAVING; an
  // integer, and a NULL or out-of-range k gives NULL. Null when k is the constant.
  ExprPtr k_expr;
};

struct AggregateExpr {
  AggFunc func;
  ExprPtr arg;  // over base columns; null for COUNT(*)
  bool distinct = false;
  OrderStatSpec order_stat;  // kOrderStat
  // Result types (SQL as PostgreSQL types them, exact where PostgreSQL is):
  //   COUNT -> BIGINT; SUM(INTEGER) -> BIGINT; SUM(BIGINT|HUGEINT) -> HUGEINT;
  //   SUM(DECIMAL(p,s)) -> DECIMAL(38,s) (int128 payload); SUM(DOUBLE) -> DOUBLE;
  //   MIN/MAX -> argument type; AVG -> DOUBLE. Aggregates over no rows are NULL,
  //   COUNT is 0.
  Type type;
  std::string name;
};

struct OrderItem {
  ExprPtr expr;  // same domain as SELECT items (may be kOutputRef)
  bool descending = false;
  // NULLS FIRST|LAST; the binder sets PostgreSQL's default when none is written (last
  // in ASC, first in DESC).
  bool nulls_first = false;
  bool default_nulls() const { return nulls_first == descending; }
};

// Window functions (OVER): evaluated after the block's rows exist and before DISTINCT,
// ORDER BY and LIMIT, as PostgreSQL defines them. The binder gives a windowed query one
// input table (the block's rows without its windows, sql/binder_window.cpp), so args,
// partition and order keys read that table's columns.
enum class WindowFunc {
  kRowNumber, kRank, kDenseRank, kPercentRank, kCumeDist, kNtile,
  kLag, kLead, kFirstValue, kLastValue, kNthValue,
  kAggregate,  // `agg` over the frame: COUNT(*), COUNT, SUM, AVG, MIN, MAX
};

// A frame bound; offsets are constants (ROWS: rows, RANGE: only UNBOUNDED / CURRENT ROW).
struct FrameBound {
  enum class Kind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kUnboundedPreceding;
  int64_t offset = 0;
};

struct WindowOrderItem {
  ExprPtr expr;
  bool descending = false;
  bool nulls_first = false;  // PostgreSQL's default: NULLS LAST ascending, FIRST descending
};

struct WindowExpr {
  WindowFunc func = WindowFunc::kRowNumber;
  AggFunc agg = AggFunc::kCountStar;  // kAggregate
  // kNtile: the bucket count; lag/lead: value, offset, default; first/last_value: value;
  // nth_value: value, n; kAggregate: the argument (none for COUNT(*)). Offsets, n and
  // bucket counts are constants (checked by the binder).
  std::vector<ExprPtr> args;
  std::vector<ExprPtr> partition;
  std::vector<WindowOrderItem> order;
  bool rows = false;  // ROWS frame; else RANGE (peers share a frame edge)
  FrameBound start, end;  // default: RANGE UNBOUNDED PRECEDING .. CURRENT ROW
  Type type;
  std::string name;
};

struct LogicalQuery {
  std::vector<TableRef> tables;
  std::vector<ExprPtr> conjuncts;  // WHERE and ON predicates, split at AND

  bool is_aggregate = false;  // GROUP BY present or any aggregate used
  std::vector<ExprPtr> group_keys;
  std::vector<AggregateExpr> aggregates;
  ExprPtr having;  // null when absent

  std::vector<ExprPtr> select;
  std::vector<std::string> output_names;
  bool distinct = false;
  std::vector<WindowExpr> windows;  // read by kWindowRef in SELECT and ORDER BY
  std::vector<OrderItem> order_by;
  int64_t limit = -1;  // -1: none
  int64_t offset = 0;

  std::string to_string() const;  // for EXPLAIN
};

// Whether two blocks give the same rows: the same table objects, and structurally the
// same filters, grouping, aggregates, HAVING, SELECT list (names too: they name the
// result's columns), DISTINCT, ORDER BY and LIMIT (same_expr). Blocks with window
// functions are never the same (not compared). A statement's binder materializes some
// subqueries more than once (a correlated one's key reduction reads the same IN
// subquery as the outer block); the runner keeps the first one's rows for the others.
bool same_query(const LogicalQuery& a, const LogicalQuery& b);

}  // namespace raydb::plan
