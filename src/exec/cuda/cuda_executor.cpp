// The CUDA backend's entry: the star kernels (star_executor.h) or the general path.
#include <optional>

#include "common/error.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "exec/cuda/general/general_executor.h"
#include "exec/cuda/general/index_steps.h"
#include "exec/cuda/star_executor.h"
#include "exec/cuda/star_plan.h"

namespace raydb::exec::cuda {

// Star plans run on the fused star kernels; every other supported shape (and a star
// plan whose data the star kernels turn down at run time) on the general path. The
// plan's analysis (cuda_plan_analysis.h) says which, computed when it was admitted.
ResultTable CudaExecutor::execute(const plan::PhysicalPlan& plan, const ExecOptions& options) {
  const std::shared_ptr<const CudaPlanAnalysis> a = analysis_of(plan);
  // The plan's compiled general path when admission compiled it for this plan (read in
  // place: its lookup tables can be megabytes), else compiled now.
  auto run_general = [&]() {
    std::optional<general::GeneralPlan> compiled;
    const general::GeneralPlan* gp = nullptr;
    if (a->general && a->general_with_index_paths == plan.has_index_paths()) {
      gp = &*a->general;
    } else {
      auto g = general::analyze_general(plan);
      if (auto* why = std::get_if<std::string>(&g))
        fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: {}", *why);
      compiled = std::get<general::GeneralPlan>(std::move(g));
      gp = &*compiled;
    }
    if (device_count() == 0) fail(ErrorKind::kNotImplemented, "no CUDA device: {}", no_device_reason());
    return general::GeneralExecutor::execute(plan, *gp, options.settings, options.keep_result_on_device);
  };
  // [gpuidx] Plans with index scans or index joins run on the general path (index_steps.h).
  if (plan.has_index_paths() || !a->star) return run_general();
  try {
    return execute_star(plan, *a->star, options, a->stream ? &*a->stream : nullptr);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kNotImplemented || device_count() == 0) throw;
    if (!a->general && std::holds_alternative<std::string>(general::analyze_general(plan))) throw;
  }
  // The star path may have let the device lock go before it turned the plan down.
  if (options.device_lock && !options.device_lock->owns_lock()) options.device_lock->lock();
  return run_general();
}

}  // namespace raydb::exec::cuda
