// raydb calibrate: measures what the planner's cost model uses on this machine (CPU
// and GPU bandwidths, and the lookup costs of every index method present: CPU rt /
// sorted array / hash, GPU rt-gpu / sa-gpu / hash-gpu) and stores them as JSON where
// plan::Calibration::default_path() says ($RAYDB_CALIBRATION, else
// $XDG_CONFIG_HOME/raydb/calibration.json, else ~/.config/raydb/calibration.json).
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <numeric>
#include <vector>

#include "cli/commands.h"
#include "cli/index_calibrator.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "plan/physical/calibration.h"
#include "plan/physical/cost_model.h"
#include "raydb/system.h"

namespace raydb::cli {

namespace {

// CPU read bandwidth: a parallel sum over `bytes`, best of 5.
double cpu_read_gbs(size_t bytes) {
  const size_t n = bytes / 8;
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

std::vector<int> parse_log2s(const std::string& s, const char* flag) {
  std::vector<int> out;
  size_t p = 0;
  while (p <= s.size()) {
    size_t c = s.find(',', p);
    if (c == std::string::npos) c = s.size();
    try {
      const int v = std::stoi(s.substr(p, c - p));
      if (v < 8 || v > 30) throw std::out_of_range("");
      if (!out.empty() && v <= out.back()) throw std::out_of_range("");
      out.push_back(v);
    } catch (const std::exception&) {
      fail(ErrorKind::kInvalidInput, "{}: ascending log2 sizes in 8..30, comma-separated (got '{}')", flag, s);
    }
    p = c + 1;
  }
  return out;
}

}  // namespace

void register_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure bandwidths and index lookup costs for the planner and store them");
  struct Args {
    std::string devices = "cpu,gpu", cpu_keys = "14,17,20", gpu_keys = "16,19,22,24,26";
    int cpu_lookups = 13, gpu_lookups = 22, reps = 3;
    bool no_index = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--devices", a->devices, "devices to measure: cpu, gpu or both (a GPU is skipped when absent)")
      ->check(CLI::IsMember({"cpu", "gpu", "cpu,gpu", "gpu,cpu"}));
  cmd->add_option("--cpu-log-keys", a->cpu_keys, "log2 key counts of the CPU index measurements (at least two)");
  cmd->add_option("--gpu-log-keys", a->gpu_keys, "log2 key counts of the GPU index measurements (at least two)");
  cmd->add_option("--cpu-log-lookups", a->cpu_lookups, "log2 batch size of the CPU index measurements")->check(CLI::Range(8, 24));
  cmd->add_option("--gpu-log-lookups", a->gpu_lookups, "log2 batch size of the GPU index measurements")->check(CLI::Range(8, 27));
  cmd->add_option("--reps", a->reps, "timed runs per index measurement (median)")->check(CLI::Range(1, 100));
  cmd->add_flag("--no-index", a->no_index, "bandwidths only");
  cmd->callback([a]() {
    const bool want_cpu = a->devices.find("cpu") != std::string::npos;
    const bool want_gpu = a->devices.find("gpu") != std::string::npos;
    IndexCalibrationOptions io;
    io.cpu = want_cpu;
    io.gpu = want_gpu;
    io.cpu_log2_keys = parse_log2s(a->cpu_keys, "--cpu-log-keys");
    io.gpu_log2_keys = parse_log2s(a->gpu_keys, "--gpu-log-keys");
    io.cpu_log2_lookups = a->cpu_lookups;
    io.gpu_log2_lookups = a->gpu_lookups;
    io.reps = a->reps;
    const std::string path = plan::Calibration::default_path();
    plan::Calibration c;
    const MachineInfo m = machine_info();
    c.cpu = m.cpu_model;
    c.cpu_threads = omp_get_max_threads();
    c.timestamp = std::time(nullptr);
    if (want_cpu) {
      c.cpu_read_gbs = cpu_read_gbs(size_t(1) << 30);
      std::printf("cpu read bandwidth: %.1f GB/s\n", c.cpu_read_gbs);
    }
    const SystemInfo sys = system_info();
    if (want_gpu && !sys.gpus.empty()) {
      const GpuDevice& d = sys.gpus.at(0);
      c.gpu = d.name;
      c.gpu_read_gbs = measure_gpu_read_gbs();
      c.host_to_device_gbs = measure_host_to_gpu_gbs();
      std::printf("gpu %s read bandwidth: %.1f GB/s\n", d.name.c_str(), c.gpu_read_gbs);
      std::printf("host to device bandwidth: %.1f GB/s\n", c.host_to_device_gbs);
    } else if (want_gpu) {
      std::printf("no CUDA device: %s\n", sys.no_gpu_reason.c_str());
      io.gpu = false;
    }
    if (!a->no_index) {
      IndexCalibrator(io).run(c);
      // What the model now makes of it: the kind it picks for a batch of 2^lookups at
      // each measured size (points and 16-row ranges, unsorted / presorted).
      plan::use_calibration(std::make_shared<const plan::Calibration>(c));
      for (plan::ExecDevice dev : {plan::ExecDevice::kCpu, plan::ExecDevice::kGpu}) {
        const bool g = dev == plan::ExecDevice::kGpu;
        if (g ? !io.gpu : !io.cpu) continue;
        const double lookups = double(uint64_t{1} << (g ? io.gpu_log2_lookups : io.cpu_log2_lookups));
        for (int lk : g ? io.gpu_log2_keys : io.cpu_log2_keys)
          for (bool ranges : {false, true})
            for (bool presorted : {false, true}) {
              plan::LookupBatch b;
              b.lookups = lookups;
              b.ranges = ranges;
              b.hits_per_lookup = ranges ? 16 : 1;
              b.presorted = presorted;
              const char* best = nullptr;
              plan::LookupEstimate be;
              for (plan::IndexKind k : {plan::IndexKind::kRt, plan::IndexKind::kSorted, plan::IndexKind::kHash}) {
                const plan::LookupEstimate e = plan::estimate_lookup(k, dev, uint64_t{1} << lk, b);
                if (!best || e.ms < be.ms) best = plan::index_kind_name(k), be = e;
              }
              std::printf("%s 2^%d keys, %s, %s: model picks %s%s (%.3f ms)\n", plan::exec_device_name(dev), lk,
                          ranges ? "range 16" : "point", presorted ? "presorted" : "unsorted", best,
                          be.sort_first ? " after sorting" : "", be.ms);
            }
      }
    }
    c.save(path);
    std::printf("stored in %s\n", path.c_str());
  });
}

}  // namespace raydb::cli
