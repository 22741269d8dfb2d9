#pragma once
// Runs a star plan (star_plan.h) on the GPU: dimension lookup arrays, one fused pass
// over the fact table, then the CPU backend's own finishing code (HAVING, SELECT,
// DISTINCT, ORDER BY, LIMIT) so results agree row for row. Throws kNotImplemented for
// data the star kernels turn down at run time (the general path then runs the plan).
#include "exec/core/result_table.h"
#include "exec/cuda/star_plan.h"
#include "exec/cuda/stream_plan.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cuda {

// sp: the plan's star analysis (cuda_plan_analysis.h); stream: set when the fact
// columns stream through in chunks (stream_plan.h).
ResultTable execute_star(const plan::PhysicalPlan& plan, const StarPlan& sp, const ExecOptions& options,
                         const StreamPlan* stream = nullptr);

}  // namespace raydb::exec::cuda
