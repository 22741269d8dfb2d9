#pragma once
// Runs a physical plan on the CPU: vectorized over batches of rows, multi-threaded
// over morsels of the probe root (OpenMP), with thread-local aggregation merged at
// the end.
#include "exec/core/result_table.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec {

class CpuExecutor {
 public:
  static ResultTable execute(const plan::PhysicalPlan& plan, const ExecOptions& options);
};

}  // namespace raydb::exec
