#pragma once
// One query on the general path, as its operators (scan_step, join_build, join_probe,
// group_step, project_step) share it: the plan, the query's stream, the connection's
// settings, and the program runner every operator evaluates expressions with.
#include <cuda_runtime.h>

#include <string>

#include "common/settings.h"
#include "exec/cuda/general/general_plan.h"
#include "exec/cuda/general/program_runner.h"
#include "gpu/phase_marks.h"

namespace raydb::exec::cuda::general {

struct GeneralQuery {
  GeneralQuery(const plan::PhysicalPlan& plan, const GeneralPlan& gp, const Settings& settings, cudaStream_t s)
      : plan(plan), gp(gp), q(*plan.query), settings(settings), s(s), nt(q.tables.size()), programs(s), marks(settings.cuda_profile(), s) {}

  const plan::PhysicalPlan& plan;
  const GeneralPlan& gp;
  const plan::LogicalQuery& q;
  const Settings& settings;
  cudaStream_t s;
  size_t nt;  // tables bound by the query
  bool keep_on_device = false;  // ExecOptions::keep_result_on_device
  ProgramRunner programs;
  std::string skipped;  // EXPLAIN ANALYZE: the scans' zone-map blocks (scan_step)
  gpu::PhaseMarks marks;  // cuda_profile: device/host time per operator
};

}  // namespace raydb::exec::cuda::general
