// raydb calibrate: measures the bandwidths the planner's cost model uses and stores
// them as JSON in $RAYDB_CALIBRATION, else $XDG_CONFIG_HOME/raydb/calibration.json,
// else ~/.config/raydb/calibration.json.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "raydb/system.h"

namespace raydb::cli {

namespace {

std::string calibration_path() {
  if (const char* p = std::getenv("RAYDB_CALIBRATION"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/raydb/calibration.json";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.config/raydb/calibration.json";
}

// CPU read bandwidth: a parallel sum over 1 GiB, best of 5.
double cpu_read_gbs() {
  const size_t n = size_t(1) << 27;  // 1 GiB of uint64
  std::vector<uint64_t> v(n);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) v[i] = i;
  double best = 1e30;
  uint64_t sink = 0;
  for (int r = 0; r < 5; r++) {
    auto t0 = std::chrono::steady_clock::now();
    uint64_t s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (size_t i = 0; i < n; i++) s += v[i];
    sink += s;
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  if (sink == 42) std::printf(" ");
  return double(n * 8) / best / 1e9;
}

}  // namespace

void register_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure CPU and GPU bandwidths for the planner and store them");
  cmd->callback([]() {
    nlohmann::ordered_json j;
    MachineInfo m = machine_info();
    j["cpu"] = m.cpu_model;
    j["cpu_threads"] = omp_get_max_threads();
    j["cpu_read_gbs"] = cpu_read_gbs();
    std::printf("cpu read bandwidth: %.1f GB/s\n", j["cpu_read_gbs"].get<double>());
    const SystemInfo sys = system_info();
    if (!sys.gpus.empty()) {
      const GpuDevice& d = sys.gpus.at(0);
      j["gpu"] = d.name;
      j["gpu_read_gbs"] = measure_gpu_read_gbs();
      j["host_to_device_gbs"] = measure_host_to_gpu_gbs();
      std::printf("gpu %s read bandwidth: %.1f GB/s\n", d.name.c_str(), j["gpu_read_gbs"].get<double>());
      std::printf("host to device bandwidth: %.1f GB/s\n", j["host_to_device_gbs"].get<double>());
    } else {
      std::printf("no CUDA device: %s\n", sys.no_gpu_reason.c_str());
    }
    j["timestamp"] = std::time(nullptr);
    const std::string path = calibration_path();
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream out(path);
    if (!out) fail(ErrorKind::kIO, "cannot write {}", path);
    out << j.dump(2) << "\n";
    std::printf("stored in %s\n", path.c_str());
  });
}

}  // namespace raydb::cli
