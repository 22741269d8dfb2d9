// `raydb calibrate` on the GPU: the GPU-resident RT scan index's methods (gpu-scan,
// gpu-sieve, rt on OptiX where it runs) timed with the result left on the device,
// turned into plan::Calibration::rt_scan_gpu like the CPU measurement
// (rt_scan_calibrator.cpp), so the CUDA backend's `auto` takes the cheapest method
// on this card and prefers the RT one only where traversal is fast (RT cores).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "access/rt_scan/gpu_scan_index.h"
#include "bench/rt_scan_calibrator.h"
#include "common/timer.h"
#include "plan/physical/cost_model.h"
#include "rt/tracer.h"

namespace raydb::bench {

namespace rs = access::rt_scan;

namespace {

double median_device_ms(const rs::GpuScanIndex& ix, const rs::ScanExpr& e, rs::ScanMethod m, uint64_t* words, int reps) {
  std::vector<double> t;
  ix.evaluate_device(e, m, words);  // warm-up
  for (int r = 0; r < reps; r++) {
    Timer timer;
    ix.evaluate_device(e, m, words);  // returns with the result complete
    t.push_back(timer.elapsed_ms());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

rs::ScanExpr ranges(uint32_t columns, int64_t rows, double keep) {
  std::vector<rs::ScanExpr> p;
  for (uint32_t c = 0; c < columns; c++)
    p.push_back(rs::ScanExpr::pred(c, rs::CompareOp::kLess, {int64_t(double(rows) * keep) + 17 * c}));
  return rs::ScanExpr::all_of(std::move(p));
}

}  // namespace

// The fixed part is an evaluation with nothing to do (a predicate every row passes);
// gpu-scan's per-row constant comes from three predicates over every row; sieve and
// refine constants are the defaults scaled to reproduce the measured times over three
// selectivities (geometric mean), the RT ones on what remains after the sieve.
std::optional<plan::Calibration::RtScanConstants> calibrate_rt_scan_gpu(int log2_rows, int reps) {
  std::string why;
  if (!rs::gpu_scan_available(&why)) {
    std::printf("gpu rt scan: not measured (%s)\n", why.c_str());
    return std::nullopt;
  }
  const int64_t n = int64_t(1) << log2_rows;
  std::mt19937_64 rng(42);
  std::vector<std::vector<int64_t>> data(3, std::vector<int64_t>(size_t(n)));
  for (auto& col : data)
    for (auto& v : col) v = int64_t(rng() % uint64_t(n));
  std::vector<rs::ScanColumn> cols(3);
  for (int c = 0; c < 3; c++) cols[size_t(c)].values = data[size_t(c)];
  std::unique_ptr<rt::Tracer> optix;
  const rt::OptixDeviceInfo& info = rt::optix_device_info();
  if (info.built && info.available) optix = rt::make_optix_tracer();
  rs::RtScanOptions o;
  o.build_rt = optix != nullptr;
  auto ix = rs::make_gpu_scan_index(cols, o, optix.get());
  auto words = rs::make_device_words((uint64_t(n) + 63) / 64);
  const plan::Calibration::RtScanConstants d = plan::default_rt_scan_constants(plan::ExecDevice::kGpu);
  plan::Calibration::RtScanConstants c;
  c.measured = true;
  const double fixed_ns = median_device_ms(*ix, ranges(1, n, 2.0), rs::ScanMethod::kGpuScan, words.get(), reps) * 1e6;
  c.fixed_ns = fixed_ns;
  // Per full-column read: the later columns are read only where rows still match.
  const rs::ScanExpr half = ranges(3, n, 0.5);
  const double t_scan = median_device_ms(*ix, half, rs::ScanMethod::kGpuScan, words.get(), reps) * 1e6;
  const double columns = std::max(1.0, ix->estimate(half).scan_columns);
  c.scan_ns_per_row_predicate = std::max(1e-6, (t_scan - fixed_ns) / (columns * double(n)));
  double log_sieve = 0, log_rt = 0;
  int rt_points = 0;
  const double keeps[] = {0.05, 0.2, 0.6};
  for (double keep : keeps) {
    const rs::ScanExpr q = ranges(3, n, keep);
    const rs::ScanEstimate e = ix->estimate(q);
    const double vec = double(n) * std::max<uint32_t>(1, e.sieve_vectors);
    const double t_sieve = median_device_ms(*ix, q, rs::ScanMethod::kGpuSieve, words.get(), reps) * 1e6;
    const double sieve_model = d.sieve_ns_per_row_vector * vec + d.sieve_refine_ns_per_row * double(e.residual_rows);
    log_sieve += std::log(std::max(0.05 * t_sieve, t_sieve - fixed_ns) / sieve_model) / 3;
    if (optix && e.residual_rows > 0) {
      const double t_rt = median_device_ms(*ix, q, rs::ScanMethod::kRt, words.get(), reps) * 1e6;
      const double rt_model = d.rt_refine_ns_per_row * double(e.residual_rows) + d.rt_ns_per_job * e.jobs;
      const double rest = t_rt - fixed_ns - d.sieve_ns_per_row_vector * vec;
      log_rt += std::log(std::max(0.05 * t_rt, rest) / rt_model);
      rt_points++;
    }
  }
  const double sieve_scale = std::exp(log_sieve);
  c.sieve_ns_per_row_vector = d.sieve_ns_per_row_vector * sieve_scale;
  c.sieve_refine_ns_per_row = d.sieve_refine_ns_per_row * sieve_scale;
  // Without OptiX the RT method is never offered; keep the defaults for the record.
  const double rt_scale = rt_points ? std::exp(log_rt / rt_points) : 1.0;
  c.rt_refine_ns_per_row = d.rt_refine_ns_per_row * rt_scale;
  c.rt_ns_per_job = d.rt_ns_per_job * rt_scale;
  std::printf("gpu rt scan, 2^%d rows x 3 columns: fixed %.1f us, gpu-scan %.5f ns/row/predicate, sieve x%.2f "
              "(%.6f ns/row/vector, refine %.3f ns/row), rt x%.2f%s (refine %.3f ns/row, launch %.1f us)\n",
              log2_rows, c.fixed_ns * 1e-3, c.scan_ns_per_row_predicate, sieve_scale, c.sieve_ns_per_row_vector,
              c.sieve_refine_ns_per_row, rt_scale, optix ? "" : " (no OptiX: defaults)", c.rt_refine_ns_per_row,
              c.rt_ns_per_job * 1e-3);
  return c;
}

}  // namespace raydb::bench
