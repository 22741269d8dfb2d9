#include "plan/physical/backend_choice.h"

#include "common/error.h"

namespace raydb::plan {

BackendRequest parse_backend_request(std::string_view name) {
  if (name == "auto") return BackendRequest::kAuto;
  if (name == "cpu") return BackendRequest::kCpu;
  if (name == "cuda" || name == "gpu") return BackendRequest::kCuda;
  if (name == "rt") return BackendRequest::kRt;
  fail(ErrorKind::kInvalidInput, "unknown backend '{}' (expected auto, cpu, cuda or rt)", name);
}

const char* backend_request_name(BackendRequest r) {
  switch (r) {
    case BackendRequest::kAuto: return "auto";
    case BackendRequest::kCpu: return "cpu";
    case BackendRequest::kCuda: return "cuda";
    case BackendRequest::kRt: return "rt";
  }
  return "?";
}

BackendKind choose_backend(BackendRequest request, const PhysicalPlan& plan, const BackendCapabilities& caps) {
  ErrorKind kind = ErrorKind::kNotImplemented;
  auto cuda_problem = [&]() -> std::optional<std::string> {
    if (caps.cuda_devices <= 0) return "no CUDA device: " + caps.cuda_missing;
    if (caps.cuda_unsupported)
      if (auto why = caps.cuda_unsupported(plan)) return "not supported on the CUDA backend yet: " + *why;
    if (caps.cuda_does_not_fit)
      if (auto why = caps.cuda_does_not_fit(plan)) {
        kind = ErrorKind::kOutOfMemory;
        return *why;
      }
    return std::nullopt;
  };
  switch (request) {
    case BackendRequest::kCpu: return BackendKind::kCpu;
    case BackendRequest::kCuda:
      if (auto why = cuda_problem()) fail(kind, "{}", *why);
      return BackendKind::kCuda;
    case BackendRequest::kAuto: return cuda_problem() ? BackendKind::kCpu : BackendKind::kCuda;
    case BackendRequest::kRt: return BackendKind::kCpu;  // CPU executor + RT index (Embree)
  }
  return BackendKind::kCpu;
}

}  // namespace raydb::plan
