#pragma once
// Which plans the general CUDA path runs (the shapes the star kernels reject), and
// their compiled programs. Operator at a time over device-resident columns:
//   per table: filters -> selection of row ids (conjuncts in the CPU's order);
//   per join step (the physical plan's order): build keys sorted on the GPU, probe
//     keys binary-searched, duplicates expanded -> row-id vectors per bound table;
//     then the step's residual conjuncts;
//   aggregate queries: GROUP BY keys sorted (stable LSD radix passes; DOUBLE keys
//     normalized as the CPU's key encoder), groups numbered, then per aggregate
//     (group_aggregate.h) COUNT / SUM / AVG (exact int128; DOUBLE through
//     ExactDoubleSum) / MIN / MAX, DISTINCT of any of them by sorted (group, value)
//     pairs; non-aggregate queries: SELECT and ORDER BY columns computed
//     per row; both finished by exec/result_finisher as on the CPU.
// Pure C++: answers the same in every build.
#include <string>
#include <variant>
#include <vector>

#include "exec/cuda/general/expression_compiler.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cuda::general {

// One join step. Without keys it is a cross product (every probe row with every build
// row, probe-major, as the CPU expands it).
struct GeneralJoin {
  int build_table = -1;
  uint64_t depends_on = 0;  // tables the probe keys read (the CPU orders steps after them)
  std::vector<CompiledProgram> build_keys, probe_keys;
  std::vector<CompiledProgram> residuals;
  std::vector<uint64_t> residual_tables;  // per residual: the tables it reads
};

struct GeneralAgg {
  plan::AggFunc func = plan::AggFunc::kCountStar;
  bool distinct = false;
  bool has_arg = false;
  CompiledProgram arg;
  plan::OrderStatSpec order_stat;  // kOrderStat
};

struct GeneralPlan {
  int root = 0;
  std::vector<std::vector<CompiledProgram>> filters;  // per table, in evaluation order
  std::vector<GeneralJoin> joins;
  std::vector<CompiledProgram> group_keys;
  std::vector<GeneralAgg> aggs;
  std::vector<CompiledProgram> outputs;  // non-aggregate: SELECT items, then ORDER BY items not naming an output
  std::vector<size_t> hidden_order;      // the ORDER BY items among `outputs`
  std::vector<ColumnPtr> columns;        // every column read (upload estimate)
};

std::variant<GeneralPlan, std::string> analyze_general(const plan::PhysicalPlan& plan);

}  // namespace raydb::exec::cuda::general
