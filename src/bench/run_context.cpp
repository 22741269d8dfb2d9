#include "bench/run_context.h"

#include <ctime>

#include "raydb/build_config.h"

namespace raydb::bench {

void add_run_context(nlohmann::ordered_json& j, const MachineInfo& m, const std::string& device) {
  j["raydb_version"] = RAYDB_VERSION;
  if (!device.empty()) j["device"] = device;
  j["machine"] = {{"hostname", m.hostname}, {"cpu", m.cpu_model}, {"hardware_threads", m.hardware_threads},
                  {"memory_gib", m.memory_gib}};
  j["timestamp"] = std::time(nullptr);
}

}  // namespace raydb::bench
