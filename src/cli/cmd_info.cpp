// raydb info: what this binary was built with and what hardware it sees.
#include <cstdio>

#include "cli/commands.h"
#include "raydb/admin.h"
#include "common/machine_info.h"
#include "raydb/build_config.h"
#include "raydb/system.h"

namespace raydb::cli {

void register_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Build features, devices and ray-tracing support");
  cmd->callback([]() {
    MachineInfo m = machine_info();
    std::printf("raydb %s (%s, %s)\n", RAYDB_VERSION, RAYDB_BUILD_TYPE, RAYDB_COMPILER);
    std::printf("cpu: %s, %d hardware threads, %.1f GiB memory\n", m.cpu_model.c_str(), m.hardware_threads,
                m.memory_gib);
    const SystemInfo sys = system_info();
    const bool gpu = !sys.gpus.empty();
    std::printf("backends: cpu%s\n", gpu ? ", cuda" : "");
    const RayTracingSupport& rt_info = sys.ray_tracing;
    std::printf("build features: CUDA %s, OptiX %s, Embree yes, Parquet %s\n",
                sys.cuda_built ? "yes (sm_90, PTX compute_75)" : "no", rt_info.built ? "yes" : "no",
                admin::parquet_available() ? "yes" : "no");
    if (!gpu) std::printf("devices: none (%s)\n", sys.no_gpu_reason.c_str());
    for (const GpuDevice& d : sys.gpus)
      std::printf("device %d: %s, compute capability %d.%d, %.1f GiB memory (%.1f GiB free), %d SMs, %.0f MiB L2\n",
                  d.index, d.name.c_str(), d.cc_major, d.cc_minor, double(d.total_bytes) / (1 << 30),
                  double(d.free_bytes) / (1 << 30), d.multiprocessors, double(d.l2_bytes) / (1 << 20));
    // OPTIX_DEVICE_PROPERTY_RTCORE_VERSION: 0 on GPUs without RT cores (A100, H100, H200).
    if (!rt_info.built)
      std::printf("ray-tracing cores: OptiX backend not built\n");
    else if (!rt_info.available)
      std::printf("ray-tracing cores: unknown (%s)\n", rt_info.reason.c_str());
    else if (rt_info.rtcore_version > 0)
      std::printf("ray-tracing cores: yes (RT core version %u, %s)\n", rt_info.rtcore_version, rt_info.device.c_str());
    else
      std::printf("ray-tracing cores: no (OptiX traverses in software on %s)\n", rt_info.device.c_str());
  });
}

}  // namespace raydb::cli
