#include "bench/calibration.h"
#include "bench/rt_scan_calibrator.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <vector>

#include "bench/index_calibrator.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "plan/physical/calibration.h"
#include "plan/physical/cost_model.h"
#include "raydb/system.h"

namespace raydb::bench {

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

// GPU and host-to-device bandwidths; without a device the GPU index part is dropped.
void measure_gpu_bandwidths(const SystemInfo& sys, plan::Calibration& c, IndexCalibrationOptions& io) {
  if (sys.gpus.empty()) {
    std::printf("no CUDA device: %s\n", sys.no_gpu_reason.c_str());
    io.gpu = false;
    return;
  }
  const GpuDevice& d = sys.gpus.at(0);
  c.gpu = d.name;
  c.gpu_read_gbs = measure_gpu_read_gbs();
  c.host_to_device_gbs = measure_host_to_gpu_gbs();
  std::printf("gpu %s read bandwidth: %.1f GB/s\n", d.name.c_str(), c.gpu_read_gbs);
  std::printf("host to device bandwidth: %.1f GB/s\n", c.host_to_device_gbs);
}

// The kind the model picks for one batch at 2^lk keys, printed.
void print_model_pick(plan::ExecDevice dev, int lk, double lookups, bool ranges, bool presorted) {
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

// What the model now makes of the measurements: the kind it picks for a batch of
// 2^lookups at each measured size (points and 16-row ranges, unsorted / presorted).
void print_model_picks(const plan::Calibration& c, const IndexCalibrationOptions& io) {
  plan::use_calibration(std::make_shared<const plan::Calibration>(c));
  for (plan::ExecDevice dev : {plan::ExecDevice::kCpu, plan::ExecDevice::kGpu}) {
    const bool g = dev == plan::ExecDevice::kGpu;
    if (g ? !io.gpu : !io.cpu) continue;
    const double lookups = double(uint64_t{1} << (g ? io.gpu_log2_lookups : io.cpu_log2_lookups));
    for (int lk : g ? io.gpu_log2_keys : io.cpu_log2_keys)
      for (bool ranges : {false, true})
        for (bool presorted : {false, true}) print_model_pick(dev, lk, lookups, ranges, presorted);
  }
}

}  // namespace

void run_calibration(const CalibrationOptions& o) {
  if (o.views_only) {  // the stored numbers stay; the views' are replaced
    const std::string path = plan::Calibration::default_path();
    std::string error;
    std::optional<plan::Calibration> old = plan::Calibration::load(path, &error);
    if (!error.empty()) fail(ErrorKind::kIO, "{}: {}", path, error);
    plan::Calibration c = old ? *old : plan::Calibration{};
    if (!old) {
      c.cpu = machine_info().cpu_model;
      c.cpu_threads = omp_get_max_threads();
    }
    c.timestamp = std::time(nullptr);
    if (!calibrate_views(o.view, c)) fail(ErrorKind::kExecution, "rt views: nothing measured, {} unchanged", path);
    c.save(path);
    std::printf("stored in %s\n", path.c_str());
    return;
  }
  IndexCalibrationOptions io = o.index;
  io.cpu = o.cpu;
  io.gpu = o.gpu;
  const std::string path = plan::Calibration::default_path();
  plan::Calibration c;
  const MachineInfo m = machine_info();
  c.cpu = m.cpu_model;
  c.cpu_threads = omp_get_max_threads();
  c.timestamp = std::time(nullptr);
  if (o.cpu) {
    c.cpu_read_gbs = cpu_read_gbs(size_t(1) << 30);
    std::printf("cpu read bandwidth: %.1f GB/s\n", c.cpu_read_gbs);
  }
  // The process's first device query makes the driver context: what a fresh one-shot
  // query pays before its first upload (plan/physical/transfer_cost.h).
  Timer first_use;
  const SystemInfo sys = system_info();
  if (o.gpu && !sys.gpus.empty()) {
    c.gpu_first_use_ms = first_use.elapsed_ms();
    std::printf("gpu first use in a process: %.1f ms\n", c.gpu_first_use_ms);
  }
  if (o.gpu) measure_gpu_bandwidths(sys, c, io);
  if (!o.bandwidths_only) {
    IndexCalibrator(io).run(c);
    print_model_picks(c, io);
    if (o.cpu) c.rt_scan_cpu = calibrate_rt_scan(o.rt_scan_log2_rows, std::max(3, io.reps));
    if (o.gpu)
      if (auto g = calibrate_rt_scan_gpu(o.rt_scan_gpu_log2_rows, std::max(5, io.reps))) c.rt_scan_gpu = *g;
    if (o.views) calibrate_views(o.view, c);
  }
  c.save(path);
  std::printf("stored in %s\n", path.c_str());
}

}  // namespace raydb::bench
