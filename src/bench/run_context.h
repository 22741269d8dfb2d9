#pragma once
// What every benchmark JSON line ends with, so runs on different machines and
// versions can be told apart: the raydb version, the GPU (when the suite names one),
// the machine and the time of the measurement.
#include <string>

#include <nlohmann/json.hpp>

#include "common/machine_info.h"

namespace raydb::bench {

// Appends raydb_version, device (only when `device` is not empty), machine and
// timestamp to `j`, in that order.
void add_run_context(nlohmann::ordered_json& j, const MachineInfo& machine, const std::string& device = "");

}  // namespace raydb::bench
