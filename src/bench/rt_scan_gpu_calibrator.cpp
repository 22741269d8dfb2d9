// `raydb calibrate` on the GPU: the GPU-resident RT scan index's methods (gpu-scan,
// gpu-sieve, rt on OptiX where it runs) timed with the result left on the device over
// a grid of 1-4 predicates and four selectivities,
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
#include "plan/physical/nonnegative_fit.h"
#include "rt/tracer.h"

namespace raydb::bench {

namespace rs = access::rt_scan;
using plan::FitPoint;
using plan::nonnegative_fit;
using plan::worst_relative_error;

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

struct Measured {
  rs::ScanEstimate est;
  double scan_ns = 0, sieve_ns = 0, rt_ns = -1;  // rt_ns < 0: not run (no OptiX)
};

// Every method on 1-4 predicates at four per-column selectivities: the work the
// planner chooses between, so that the fitted constants reproduce it.
std::vector<Measured> measure_grid(const rs::GpuScanIndex& ix, int64_t n, bool rt, uint64_t* words, int reps) {
  std::vector<Measured> out;
  for (uint32_t preds = 1; preds <= 4; ++preds)
    for (const double keep : {0.01, 0.1, 0.5, 0.9}) {
      const rs::ScanExpr q = ranges(preds, n, keep);
      Measured m;
      m.est = ix.estimate(q);
      m.scan_ns = median_device_ms(ix, q, rs::ScanMethod::kGpuScan, words, reps) * 1e6;
      m.sieve_ns = median_device_ms(ix, q, rs::ScanMethod::kGpuSieve, words, reps) * 1e6;
      if (rt) m.rt_ns = median_device_ms(ix, q, rs::ScanMethod::kRt, words, reps) * 1e6;
      out.push_back(m);
    }
  return out;
}

// gpu-sieve's whole time (its own fixed part: other launches and allocations than
// gpu-scan's) by the memory it touches: sieve passes over the bin codes, sieve
// launches, refine launches and the refine's random sectors (ScanEstimate).
std::vector<FitPoint> sieve_points(const std::vector<Measured>& grid, double rows) {
  std::vector<FitPoint> out;
  for (const Measured& m : grid)
    out.push_back({{1.0, rows * m.est.sieve_passes, double(m.est.jobs), double(m.est.refine_jobs), m.est.refine_sectors},
                   m.sieve_ns});
  return out;
}

}  // namespace

// Each method's constants are a non-negative least-squares fit (relative error) of the
// cost model's terms (cost_model.cpp rt_scan_cost_ms) to the grid: gpu-scan gives the
// fixed part and the per-column read; gpu-sieve its own fixed part, sieve passes and
// launches, refine launches and refine sectors (sieve_points); the RT launch, per-row
// and per-slab-row refine come from rt's time above its sieve part.
std::optional<plan::Calibration::RtScanConstants> calibrate_rt_scan_gpu(int log2_rows, int reps) {
  std::string why;
  if (!rs::gpu_scan_available(&why)) {
    std::printf("gpu rt scan: not measured (%s)\n", why.c_str());
    return std::nullopt;
  }
  const int64_t n = int64_t(1) << log2_rows;
  std::mt19937_64 rng(42);
  std::vector<std::vector<int64_t>> data(4, std::vector<int64_t>(size_t(n)));
  for (auto& col : data)
    for (auto& v : col) v = int64_t(rng() % uint64_t(n));
  std::vector<rs::ScanColumn> cols(data.size());
  for (size_t c = 0; c < data.size(); c++) cols[c].values = data[c];
  std::unique_ptr<rt::Tracer> optix;
  const rt::OptixDeviceInfo& info = rt::optix_device_info();
  if (info.built && info.available) optix = rt::make_optix_tracer();
  rs::RtScanOptions o;
  o.build_rt = optix != nullptr;
  auto ix = rs::make_gpu_scan_index(cols, o, optix.get());
  auto words = rs::make_device_words((uint64_t(n) + 63) / 64);
  const std::vector<Measured> grid = measure_grid(*ix, n, optix != nullptr, words.get(), reps);
  const double rows = double(n);

  std::vector<FitPoint> scan;
  for (const Measured& m : grid) scan.push_back({{1.0, rows * m.est.scan_columns}, m.scan_ns});
  const std::vector<double> fs = nonnegative_fit(scan, 2);
  plan::Calibration::RtScanConstants c = plan::default_rt_scan_constants(plan::ExecDevice::kGpu);
  c.measured = true;
  c.fixed_ns = fs[0];
  c.scan_ns_per_row_predicate = std::max(1e-6, fs[1]);

  std::vector<FitPoint> sieve = sieve_points(grid, rows);
  const std::vector<double> fv = nonnegative_fit(sieve, 5);
  c.sieve_fixed_ns = fv[0];
  c.sieve_pass_ns_per_row = std::max(1e-7, fv[1]);
  c.sieve_job_ns = fv[2];
  c.sieve_refine_job_ns = fv[3];
  c.sieve_refine_ns_per_sector = fv[4];
  c.sieve_ns_per_row_vector = 0;  // the per-vector form's terms: unused with sieve_pass_ns_per_row
  c.sieve_refine_ns_per_row = 0;

  std::vector<FitPoint> rt;
  for (const Measured& m : grid) {
    if (m.rt_ns < 0 || m.est.refine_jobs == 0) continue;
    const double sieve_part = c.sieve_fixed_ns + c.sieve_pass_ns_per_row * rows * m.est.sieve_passes +
                              c.sieve_job_ns * double(m.est.jobs);
    rt.push_back({{double(m.est.refine_jobs), double(m.est.residual_rows), m.est.slab_rows},
                  std::max(0.05 * m.rt_ns, m.rt_ns - sieve_part)});
  }
  if (!rt.empty()) {  // without OptiX the RT method is never offered: keep the defaults
    const std::vector<double> fr = nonnegative_fit(rt, 3);
    c.rt_ns_per_job = fr[0];
    c.rt_refine_ns_per_row = fr[1];
    c.rt_slab_ns_per_row = fr[2];
  }
  std::printf("gpu rt scan, 2^%d rows x 4 columns, %zu queries: fixed %.1f us, gpu-scan %.5f ns/row/column "
              "(worst %.0f%%), sieve %.1f us + %.6f ns/row/pass + %.1f us/job + %.1f us/refine launch + %.4f "
              "ns/refine sector (worst %.0f%%), rt %.1f us/launch + %.3f ns/refined row + %.3f ns/slab row%s\n",
              log2_rows, grid.size(), c.fixed_ns * 1e-3, c.scan_ns_per_row_predicate, 100 * worst_relative_error(scan, fs),
              c.sieve_fixed_ns * 1e-3, c.sieve_pass_ns_per_row, c.sieve_job_ns * 1e-3, c.sieve_refine_job_ns * 1e-3,
              c.sieve_refine_ns_per_sector, 100 * worst_relative_error(sieve, fv), c.rt_ns_per_job * 1e-3,
              c.rt_refine_ns_per_row, c.rt_slab_ns_per_row, rt.empty() ? " (no OptiX: defaults)" : "");
  return c;
}

}  // namespace raydb::bench
