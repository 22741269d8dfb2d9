#pragma once
// Which backend runs a query. `auto` asks the planner to pick the fastest backend
// available on this machine; a named backend is forced (tests, benchmarks) and is
// an error when this build or machine does not have it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "plan/physical/physical_plan.h"

namespace raydb::plan {

// kRt: run on the CPU backend but take the RT index path wherever an RT index
// applies (the access-path choice is forced, not costed).
enum class BackendRequest { kAuto, kCpu, kCuda, kRt };

BackendRequest parse_backend_request(std::string_view name);  // kInvalidInput when unknown
const char* backend_request_name(BackendRequest r);

// What the backends of this process can do, handed in by the API layer (plan/ does
// not depend on the executors): device presence, and per plan whether the CUDA
// executor supports it and whether its columns fit the device memory budget.
struct BackendCapabilities {
  int cuda_devices = 0;
  std::string cuda_missing;  // why there is no CUDA device
  std::function<std::optional<std::string>(const PhysicalPlan&)> cuda_unsupported;  // reason, or nullopt
  std::function<std::optional<std::string>(const PhysicalPlan&)> cuda_does_not_fit;  // reason, or nullopt
};

// Resolves a request for one plan on this machine. `cpu`: the CPU. `cuda`: the GPU,
// or Error(kNotImplemented) with a one-line reason (no device, a plan shape the
// CUDA backend does not run yet, too little device memory). `auto`: the GPU when
// there is one and the plan is supported and fits, else the CPU. (The calibrated
// cost model refines `auto` once both backends cover the same shapes.)
BackendKind choose_backend(BackendRequest request, const PhysicalPlan& plan, const BackendCapabilities& caps);

}  // namespace raydb::plan
