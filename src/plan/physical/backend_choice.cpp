#include "plan/physical/backend_choice.h"

#include "common/error.h"

namespace raydb::plan {

BackendRequest parse_backend_request(std::string_view name) {
  if (name == "auto") return BackendRequest::kAuto;
  if (name == "cpu") return BackendRequest::kCpu;
  fail(ErrorKind::kInvalidInput, "unknown backend '{}' (expected auto or cpu)", name);
}

const char* backend_request_name(BackendRequest r) {
  switch (r) {
    case BackendRequest::kAuto: return "auto";
    case BackendRequest::kCpu: return "cpu";
  }
  return "?";
}

BackendKind choose_backend(BackendRequest request) {
  switch (request) {
    case BackendRequest::kAuto:
    case BackendRequest::kCpu: return BackendKind::kCpu;
  }
  return BackendKind::kCpu;
}

}  // namespace raydb::plan
