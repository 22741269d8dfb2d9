#include "exec/cpu/cpu_executor.h"

#include "exec/cpu/cpu_query_run.h"
#include "exec/cpu/window/window_query_run.h"

namespace raydb::exec {

ResultTable CpuExecutor::execute(const plan::PhysicalPlan& plan, const ExecOptions& options) {
  if (!plan.query->windows.empty()) return cpu::WindowQueryRun(plan, options).run();
  return cpu::CpuQueryRun(plan, options).run();
}

}  // namespace raydb::exec
