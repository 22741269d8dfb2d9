#pragma once
// Which backend runs a query. `auto` asks the planner to pick the fastest backend
// available on this machine; a named backend is forced (tests, benchmarks) and is
// an error when this build or machine does not have it.
#include <string_view>

#include "plan/physical/physical_plan.h"

namespace raydb::plan {

// kRt: run on the CPU backend but take the RT index path wherever an RT index
// applies (the access-path choice is forced, not costed).
enum class BackendRequest { kAuto, kCpu, kRt };

BackendRequest parse_backend_request(std::string_view name);  // kInvalidInput when unknown
const char* backend_request_name(BackendRequest r);

// Resolves a request on this machine. Only the CPU backend exists so far, so `auto`
// resolves to it; GPU and RT backends add their availability and cost here.
BackendKind choose_backend(BackendRequest request);

}  // namespace raydb::plan
