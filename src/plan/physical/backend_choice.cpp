#include "plan/physical/backend_choice.h"

#include "common/error.h"

namespace raydb::plan {

BackendRequest parse_backend_request(std::string_view name) {
  if (name == "auto") return BackendRequest::kAuto;
  if (name == "cpu") return BackendRequest::kCpu;
  if (name == "rt") return BackendRequest::kRt;
  fail(ErrorKind::kInvalidInput, "unknown backend '{}' (expected auto, cpu or rt)", name);
}

const char* backend_request_name(BackendRequest r) {
  switch (r) {
    case BackendRequest::kAuto: return "auto";
    case BackendRequest::kCpu: return "cpu";
    case BackendRequest::kRt: return "rt";
  }
  return "?";
}

BackendKind choose_backend(BackendRequest request) {
  switch (request) {
    case BackendRequest::kAuto:
    case BackendRequest::kCpu: return BackendKind::kCpu;
    case BackendRequest::kRt: return BackendKind::kCpu;  // CPU executor + RT index (Embree)
  }
  return BackendKind::kCpu;
}

}  // namespace raydb::plan
