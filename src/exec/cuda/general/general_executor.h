#pragma once
// Runs a GeneralPlan (general_plan.h) on the GPU, operator at a time over
// device-resident columns and row-id vectors, and hands groups or rows to the
// shared finisher (exec/core/result_finisher) so results equal the CPU backend's.
#include "common/settings.h"
#include "exec/core/result_table.h"
#include "exec/cuda/general/general_plan.h"

namespace raydb::exec::cuda::general {

class GeneralExecutor {
 public:
  // settings: the connection's (cuda_join, cuda_group); the default, the process's.
  // keep_on_device: ExecOptions::keep_result_on_device (project_step keeps the columns).
  static ResultTable execute(const plan::PhysicalPlan& plan, const GeneralPlan& gp,
                             const Settings& settings = Settings(), bool keep_on_device = false);
};

}  // namespace raydb::exec::cuda::general
