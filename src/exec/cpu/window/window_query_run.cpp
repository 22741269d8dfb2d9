#include "exec/cpu/window/window_query_run.h"

#include <omp.h>

#include <algorithm>
#include <numeric>

#include "common/error.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/result_finisher.h"
#include "exec/cpu/window/window_evaluator.h"

namespace raydb::exec::cpu {

WindowQueryRun::WindowQueryRun(const plan::PhysicalPlan& plan, const ExecOptions& options)
    : q_(*plan.query), threads_(options.threads > 0 ? options.threads : omp_get_max_threads()) {}

ResultTable WindowQueryRun::run() {
  if (q_.tables.size() != 1 || !q_.conjuncts.empty() || q_.is_aggregate)
    fail(ErrorKind::kInternal, "a query with window functions reads one table and nothing else");
  ResultTable result;
  result.interner = std::make_shared<StringInterner>();
  result.names = q_.output_names;
  const size_t n = q_.tables[0].table->row_count();
  std::vector<uint32_t> rows(std::max<size_t>(n, 1));  // a pointer even for no rows (none is read)
  std::iota(rows.begin(), rows.end(), 0u);
  BatchRows batch;
  batch.n = n;
  batch.rows = {rows.data()};
  EvalContext ctx;
  ctx.query = &q_;
  ctx.batch = &batch;
  ctx.n = n;
  auto eval_all = [&](const std::vector<plan::ExprPtr>& exprs) {
    std::vector<Vector> out;
    for (auto& e : exprs) out.push_back(evaluate(*e, ctx));
    return out;
  };
  std::vector<Vector> windows;
  for (const plan::WindowExpr& w : q_.windows) {
    std::vector<plan::ExprPtr> keys;
    for (auto& o : w.order) keys.push_back(o.expr);
    WindowEvaluator ev(w, eval_all(w.args), eval_all(w.partition), eval_all(keys), n, threads_,
                       result.interner.get());
    windows.push_back(ev.run());
  }
  ctx.windows = &windows;
  std::vector<Vector> outputs = eval_all(q_.select);
  if (!q_.order_by.empty()) {
    ctx.outputs = &outputs;
    std::vector<Vector> extra;
    for (auto& o : q_.order_by) extra.push_back(evaluate(*o.expr, ctx));
    for (auto& v : extra) outputs.push_back(std::move(v));
  }
  finish_rows(q_, std::move(outputs), n, result);
  return result;
}

}  // namespace raydb::exec::cpu
