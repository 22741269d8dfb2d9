#include "exec/cuda/cuda_plan_analysis.h"

#include "common/error.h"
#include "exec/cuda/cuda_backend.h"
#include "plan/logical/columns_read.h"

namespace raydb::exec::cuda {

std::variant<std::shared_ptr<CudaPlanAnalysis>, std::string> analyze_for_cuda(const plan::PhysicalPlan& plan) {
  // Window functions run on the CPU only: declined, so `auto` falls back.
  if (!plan.query->windows.empty()) return std::string("window functions (OVER)");
  // Not yet run on a GPU: declined, so `auto` runs them on the CPU.
  if (plan::query_touches_type(*plan.query, TypeId::kBoolean, TypeId::kNull))
    return std::string("BOOLEAN columns");
  if (plan::query_touches_type(*plan.query, TypeId::kTimestamp, TypeId::kTimestamp))
    return std::string("TIMESTAMP columns and values");
  auto a = std::make_shared<CudaPlanAnalysis>();
  plan::PhysicalPlan plain = plan;  // as the star kernels would run it: no index paths
  plain.clear_index_paths();
  auto star = analyze(plain);
  if (auto* sp = std::get_if<StarPlan>(&star)) {
    a->star = std::move(*sp);
    a->fused_pass_ms = fused_pass_cost_ms(*a->star);
  } else {
    a->star_refusal = std::get<std::string>(star);
    auto g = general::analyze_general(plain);
    if (auto* why = std::get_if<std::string>(&g)) return *why;
    a->general = std::get<general::GeneralPlan>(std::move(g));
  }
  a->bytes_to_upload = bytes_to_upload(*a);
  a->host_bytes_to_upload = host_bytes_to_upload(*a);
  return a;
}

std::shared_ptr<const CudaPlanAnalysis> analysis_of(const plan::PhysicalPlan& plan) {
  if (auto a = std::dynamic_pointer_cast<const CudaPlanAnalysis>(plan.analysis)) return a;
  auto r = analyze_for_cuda(plan);
  if (auto* why = std::get_if<std::string>(&r))
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: {}", *why);
  return std::get<std::shared_ptr<CudaPlanAnalysis>>(std::move(r));
}

}  // namespace raydb::exec::cuda
