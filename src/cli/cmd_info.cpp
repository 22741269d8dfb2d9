// raydb info: what this binary was built with and what hardware it sees.
#include <cstdio>

#include "cli/commands.h"
#include "common/machine_info.h"
#include "raydb/build_config.h"

namespace raydb::cli {

void register_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Build features, devices and ray-tracing support");
  cmd->callback([]() {
    MachineInfo m = machine_info();
    std::printf("raydb %s (%s, %s)\n", RAYDB_VERSION, RAYDB_BUILD_TYPE, RAYDB_COMPILER);
    std::printf("cpu: %s, %d hardware threads, %.1f GiB memory\n", m.cpu_model.c_str(), m.hardware_threads,
                m.memory_gib);
    std::printf("backends: cpu\n");
    std::printf("build features: CUDA no, OptiX no, Embree no\n");
    std::printf("devices: none (CUDA backend not built)\n");
    std::printf("ray-tracing cores: no\n");
  });
}

}  // namespace raydb::cli
