#pragma once
// Which plans the CUDA backend runs, and how: a star join. The probe root (fact
// table) streams once through one fused kernel; every other table is a dimension
// joined on one integer key that is unique in it, and becomes a key-indexed lookup
// array holding a dense group code or "filtered out" (DESIGN decision 5).
//
// Supported shape (analyze() says why not otherwise):
//   - an aggregate query (GROUP BY and/or aggregates, no DISTINCT aggregates);
//   - root filters that compile to column predicates (ranges of stored values, any
//     number of them: IN lists of any length) or to boolean programs over range and
//     semi-linear leaves (exec/core/filter_program.h: OR/NOT across columns,
//     comparisons between columns, a*x + b*y - c*z op k);
//   - joins root.fk = dim.key, integer columns, one per dimension, no residuals;
//   - dimension filters that compile to column predicates;
//   - GROUP BY keys that are columns (root or dimension) with known value ranges;
//   - COUNT/SUM/AVG/MIN/MAX over + - * and unary minus of root integer/decimal
//     columns and constants, with every intermediate provably within 64 bits
//     (interval arithmetic over the column statistics), or MIN/MAX/COUNT of a
//     root VARCHAR column (dictionary codes order like their strings);
//   - order statistics (median, quantile_*, percentile_*, kth_*) of a root integer,
//     DECIMAL, DATE or VARCHAR column, not DISTINCT.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "exec/core/filter_program.h"
#include "exec/core/key_encoder.h"
#include "exec/core/order_statistics/order_key.h"
#include "exec/cuda/kernel_params.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cuda {

struct StarFilter {
  ColumnPtr column;
  int fact_col = -1;  // root filters: index into StarPlan::fact_columns
  std::vector<std::pair<int64_t, int64_t>> ranges;  // stored values, inclusive, sorted
  double coverage = 1;
  // A root filter `column [NOT] IN key_set`: `ranges` stay empty and the set's runs are
  // read in place (exec/core/key_set_window.h), not copied (1.3 M of them at SF 20).
  plan::KeySetPtr key_set;
  bool negated = false;
  // The ranges, from the key set's window over the column's [min, max] when it has one.
  std::vector<std::pair<int64_t, int64_t>> value_ranges() const;
};

// A root filter that is a boolean program: fact_cols maps each range leaf's and each
// linear term's column to its StarPlan::fact_columns index.
struct StarTree {
  FilterProgram program;
  std::vector<int> range_cols;                // per range leaf
  std::vector<std::vector<int>> linear_cols;  // per linear leaf, per term
};

struct StarDim {
  int table = -1;
  ColumnPtr key;
  int fact_col = -1;  // the root's foreign-key column
  std::vector<StarFilter> filters;
  bool always_false = false;
  std::vector<int> group_keys;  // indices into LogicalQuery::group_keys read from this dim
};

struct StarAgg {
  plan::AggFunc func = plan::AggFunc::kCountStar;
  // An order statistic (median, quantiles, k-th): the fact kernel counts its rows
  // (dev is COUNT); a second pass writes each row's group, and the selection runs on
  // the device over the column's values (star_order_stats.cpp).
  bool order_stat = false;
  int os_col = -1;  // fact_columns index of its argument
  orderstat::KeyType key_type = orderstat::KeyType::kInt64;
  DevAgg dev;                  // program columns index StarPlan::fact_columns
  VectorKind kind = VectorKind::kInt;  // the argument's kind for AggregateStates
  const Dictionary* dict = nullptr;
  Type arg_type;
};

struct StarPlan {
  int root = 0;
  uint64_t root_rows = 0;
  std::vector<ColumnPtr> fact_columns;  // distinct root columns the kernel reads
  std::vector<StarFilter> fact_filters;
  // Every root conjunct (with the join conditions made fact filters), for data skipping
  // (star_blocks.h).
  std::vector<plan::ExprPtr> fact_conjuncts;
  std::vector<StarTree> fact_trees;     // applied after fact_filters
  std::vector<StarDim> dims;
  std::vector<int> root_group_keys;     // GROUP BY keys on root columns
  std::vector<int> root_group_cols;     // their fact_columns index
  std::vector<KeySpec> key_specs;       // one per GROUP BY key (as the CPU backend encodes them)
  std::vector<int> key_shifts;          // packed-word shift per key (KeyEncoder layout)
  std::vector<StarAgg> aggs;
  bool always_false = false;            // some filter can never pass
};

// A StarPlan, or the reason the plan is outside the CUDA backend's shapes.
std::variant<StarPlan, std::string> analyze(const plan::PhysicalPlan& plan);

// The accumulator fields of a star query: field 0 counts rows, then each aggregate
// other than a COUNT has its low word (and its high word when wide). lo_field /
// hi_field: per aggregate its field, -1 if none; returns the number of fields.
int number_accumulators(const StarPlan& star, std::vector<int>& lo_field, std::vector<int>& hi_field);

// Estimated device milliseconds of the star kernels' one fused pass over the fact
// table: filter columns read whole, other fact columns only in the 16-row vectors
// holding a selected row, dimensions whole.
double fused_pass_cost_ms(const StarPlan& star);

}  // namespace raydb::exec::cuda
