#pragma once
// A query with window functions on the CPU. The binder gives such a query one input
// table (the rows of its SELECT block before the windows: sql/binder_window.cpp) and
// nothing else to do before them, so this run is: evaluate each window's arguments
// and keys over the rows, compute each window (window_evaluator.h), then SELECT and
// the ORDER BY keys over the rows and window results, and finish_rows (DISTINCT,
// ORDER BY, OFFSET/LIMIT) as every query does.
#include "exec/core/result_table.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cpu {

class WindowQueryRun {
 public:
  WindowQueryRun(const plan::PhysicalPlan& plan, const ExecOptions& options);
  ResultTable run();

 private:
  const plan::LogicalQuery& q_;
  int threads_;
};

}  // namespace raydb::exec::cpu
