#pragma once
// What the CUDA backend learns about a plan when it admits it, carried in the plan
// (PhysicalPlan::analysis) to the access-path choice and to execution, so the plan is
// analysed once: the star kernels' plan (when they run it), else the general path's
// compiled programs, the bytes its columns still need on the device, and the fused
// pass's estimated cost. Pure C++: answers the same with or without a device.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "exec/cuda/general/general_plan.h"
#include "exec/cuda/star_plan.h"
#include "exec/cuda/stream_plan.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cuda {

struct PrefetchTicket;  // prefetch_registry.h

struct CudaPlanAnalysis final : plan::BackendAnalysis {
  // The star kernels run the plan as analysed without index paths.
  std::optional<StarPlan> star;
  std::string star_refusal;  // why the star kernels do not run it (tests and diagnostics)
  // The general path's programs: for plans the star kernels do not run, and for the
  // final plan when index paths were chosen (they run on the general path).
  std::optional<general::GeneralPlan> general;
  bool general_with_index_paths = false;  // `general` is of the plan with its index paths
  // Estimated device ms of the star kernels' fused pass (the access-path choice
  // compares index plans with it); nullopt when they would not run the plan.
  std::optional<double> fused_pass_ms;
  uint64_t bytes_to_upload = 0;  // device bytes the plan's columns need beyond what is resident
  uint64_t host_bytes_to_upload = 0;  // the stored bytes of those columns
  // Set when the star kernels stream the fact columns (they do not fit the budget, or
  // cuda_stream=on); chosen with the access paths, when the budget is known.
  std::optional<StreamPlan> stream;
  std::string label;  // describe()'s text for a streamed plan
  // The read-ahead of the plan's narrowed files (setting prefetch), started when the
  // driver is about to run it; what was not uploaded is withdrawn when the plan is dropped.
  std::shared_ptr<PrefetchTicket> prefetch;

  const char* describe() const override {
    if (!label.empty()) return label.c_str();
    return star ? "star kernels" : "general path";
  }
};

// Analyses `plan` (its index paths ignored, as at admission) for the CUDA backend, or
// the reason neither the star kernels nor the general path run it.
std::variant<std::shared_ptr<CudaPlanAnalysis>, std::string> analyze_for_cuda(const plan::PhysicalPlan& plan);

// The plan's analysis (computed now when the plan carries none, e.g. a direct caller).
std::shared_ptr<const CudaPlanAnalysis> analysis_of(const plan::PhysicalPlan& plan);

}  // namespace raydb::exec::cuda
