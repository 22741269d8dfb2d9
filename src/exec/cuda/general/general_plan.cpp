#include "exec/cuda/general/general_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "exec/core/column_predicate.h"

namespace raydb::exec::cuda::general {

using plan::AggFunc;
using plan::ExprKind;

namespace {

void add_columns(GeneralPlan& g, const CompiledProgram& p) {
  for (auto& c : p.columns)
    if (std::find(g.columns.begin(), g.columns.end(), c.column) == g.columns.end()) g.columns.push_back(c.column);
}

}  // namespace

std::variant<GeneralPlan, std::string> analyze_general(const plan::PhysicalPlan& plan) {
  const plan::LogicalQuery& q = *plan.query;
  if (q.tables.empty()) return std::string("a query without tables");
  if (q.tables.size() > 64) return std::string("more than 64 tables");
  ExpressionCompiler compiler(q);
  GeneralPlan g;
  g.root = plan.root_table;
  std::string why;
  auto take = [&](std::variant<CompiledProgram, std::string> r, std::vector<CompiledProgram>& out) {
    if (auto* w = std::get_if<std::string>(&r)) {
      if (why.empty()) why = *w;
      return false;
    }
    add_columns(g, std::get<CompiledProgram>(r));
    out.push_back(std::move(std::get<CompiledProgram>(r)));
    return true;
  };

  // Filters: the CPU applies conjuncts that compile to column predicates first (they
  // cannot fail), then the others in order, each on the rows the earlier ones kept;
  // the same order here raises the same errors.
  g.filters.resize(q.tables.size());
  for (size_t t = 0; t < q.tables.size(); t++) {
    std::vector<const plan::Expr*> first, rest;
    for (auto& c : plan.table_filters[t]) (ColumnPredicate::compile(*c, q) ? first : rest).push_back(c.get());
    for (auto* lists : {&first, &rest})
      for (auto* c : *lists)
        if (!take(compiler.compile(*c), g.filters[t])) return why;
  }
  for (auto& step : plan.joins) {
    GeneralJoin j;
    j.build_table = step.build_table;
    j.depends_on = step.depends_on;
    for (size_t k = 0; k < step.build_keys.size(); k++) {
      const plan::Expr& bk = *step.build_keys[k];
      if (!take(compiler.compile(bk), j.build_keys)) return why;
      const CompiledProgram& b = j.build_keys.back();
      // 128-bit keys: the CPU backend does not join on them either (it stops with "join
      // on a 128-bit key expression"); the planner makes HUGEINT joins cross products.
      if (b.kind == VectorKind::kString || b.kind == VectorKind::kHuge)
        return fmt::format("join key {} of type {}", bk.to_string(), bk.type.to_string());
      if (!take(compiler.compile_join_probe(*step.probe_keys[k], b.kind == VectorKind::kCode ? b.dict : nullptr),
                j.probe_keys))
        return why;
      const CompiledProgram& p = j.probe_keys.back();
      if (p.kind != b.kind)
        return fmt::format("join keys {} and {} of different kinds", step.probe_keys[k]->to_string(), bk.to_string());
    }
    for (auto& r : step.residuals) {
      if (!take(compiler.compile(*r), j.residuals)) return why;
      j.residual_tables.push_back(plan::tables_used(*r));
    }
    g.joins.push_back(std::move(j));
  }
  if (q.is_aggregate) {
    for (auto& k : q.group_keys)
      if (!take(compiler.compile(*k), g.group_keys)) return why;
    for (auto& a : q.aggregates) {
      GeneralAgg ga;
      ga.func = a.func;
      ga.distinct = a.distinct;
      ga.order_stat = a.order_stat;
      if (a.arg) {
        std::vector<CompiledProgram> one;
        if (!take(compiler.compile(*a.arg), one)) return why;
        ga.arg = std::move(one[0]);
        ga.has_arg = true;
        const VectorKind k = ga.arg.kind;
        if ((a.func == AggFunc::kSum || a.func == AggFunc::kAvg) && k == VectorKind::kCode)
          return fmt::format("{} over strings", a.name);
        if (a.func == AggFunc::kOrderStat && k != VectorKind::kInt && k != VectorKind::kDouble && k != VectorKind::kCode)
          return fmt::format("{} over 128-bit or computed string values", a.name);
      }
      g.aggs.push_back(std::move(ga));
    }
  } else {
    for (auto& e : q.select)
      if (!take(compiler.compile(*e), g.outputs)) return why;
    for (size_t i = 0; i < q.order_by.size(); i++) {
      if (q.order_by[i].expr->kind == ExprKind::kOutputRef) continue;
      if (!take(compiler.compile(*q.order_by[i].expr), g.outputs)) return why;
      g.hidden_order.push_back(i);
    }
  }
  return g;
}

}  // namespace raydb::exec::cuda::general
