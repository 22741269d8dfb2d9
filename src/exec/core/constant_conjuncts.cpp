#include "exec/core/constant_conjuncts.h"

#include <vector>

#include "exec/core/expression_evaluator.h"

namespace raydb::exec {

bool constant_conjuncts_pass(const plan::PhysicalPlan& plan) {
  if (plan.always_empty) return false;
  const plan::LogicalQuery& q = *plan.query;
  for (auto& c : plan.root_residuals) {
    BatchRows none;
    none.n = 1;
    none.rows.assign(q.tables.size(), nullptr);
    EvalContext ctx;
    ctx.query = &q;
    ctx.batch = &none;
    ctx.n = 1;
    std::vector<uint8_t> keep;
    evaluate_predicate(*c, ctx, keep);
    if (!keep[0]) return false;
  }
  return true;
}

}  // namespace raydb::exec
