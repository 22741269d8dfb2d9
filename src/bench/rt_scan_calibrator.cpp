#include "bench/rt_scan_calibrator.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "access/rt_scan/scan_index.h"
#include "plan/physical/cost_model.h"
#include "common/timer.h"
#include "rt/tracer.h"

namespace raydb::bench {

namespace rs = access::rt_scan;

namespace {

double median_ms(const rs::ScanIndex& ix, const rs::ScanExpr& e, rs::ScanMethod m, int reps) {
  std::vector<double> t;
  rs::BitVector bits;
  ix.evaluate(e, m, bits);  // warm-up
  for (int r = 0; r < reps; r++) {
    Timer timer;
    ix.evaluate(e, m, bits);
    t.push_back(timer.elapsed_ms());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Three predicates `c_i < bound` (each keeps about `keep` of the rows).
rs::ScanExpr three_ranges(int64_t rows, double keep) {
  std::vector<rs::ScanExpr> p;
  for (uint32_t c = 0; c < 3; c++) p.push_back(rs::ScanExpr::pred(c, rs::CompareOp::kLess, {int64_t(double(rows) * keep) + 17 * c}));
  return rs::ScanExpr::all_of(std::move(p));
}

}  // namespace

// Each method is timed on four selectivities with the index's default (nearest)
// sieving, and each constant is the compiled-in default scaled so that the model
// reproduces the measured times (geometric mean of measured / modelled): cpu-scan
// fixes its per-row constant, cpu-sieve scales the sieve and refine constants, rt
// scales its refine, launch and slab constants on what remains after the sieve.
plan::Calibration::RtScanConstants calibrate_rt_scan(int log2_rows, int reps) {
  const int64_t n = int64_t(1) << log2_rows;
  std::mt19937_64 rng(42);
  std::vector<std::vector<int64_t>> data(3, std::vector<int64_t>(size_t(n)));
  for (auto& col : data)
    for (auto& v : col) v = int64_t(rng() % uint64_t(n));
  std::vector<rs::ScanColumn> cols(3);
  for (int c = 0; c < 3; c++) cols[size_t(c)].values = data[size_t(c)];
  auto tracer = rt::make_embree_tracer();
  auto ix = rs::make_host_scan_index(cols, rs::RtScanOptions{}, tracer.get());
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);  // the cost model's milliseconds are single-thread ones
  const plan::Calibration::RtScanConstants d = plan::default_rt_scan_constants();
  double scan_ns = 0, log_sieve = 0, log_rt = 0;
  // 0.9 puts most rows of the residual slabs in reach of the rays (rt's slab term).
  const double keeps[] = {0.05, 0.2, 0.6, 0.9};
  const double k = double(std::size(keeps));
  std::vector<std::array<double, 3>> times;
  for (double keep : keeps) {
    const rs::ScanExpr q = three_ranges(n, keep);
    const rs::ScanEstimate e = ix->estimate(q);
    const double t_scan = median_ms(*ix, q, rs::ScanMethod::kCpuScan, reps) * 1e6;
    const double t_sieve = median_ms(*ix, q, rs::ScanMethod::kCpuSieve, reps) * 1e6;
    const double t_rt = median_ms(*ix, q, rs::ScanMethod::kRt, reps) * 1e6;
    scan_ns += t_scan / double(n * e.predicates) / k;
    const double vec = double(n) * std::max<uint32_t>(1, e.sieve_vectors);
    log_sieve += std::log(t_sieve / (d.sieve_ns_per_row_vector * vec + d.sieve_refine_ns_per_row * double(e.residual_rows))) / k;
    times.push_back({t_rt, vec, double(e.residual_rows) * d.rt_refine_ns_per_row + d.rt_ns_per_job * e.jobs +
                               d.rt_slab_ns_per_row * e.slab_rows});
  }
  plan::Calibration::RtScanConstants c;
  c.measured = true;
  c.scan_ns_per_row_predicate = scan_ns;
  const double sieve_scale = std::exp(log_sieve);
  c.sieve_ns_per_row_vector = d.sieve_ns_per_row_vector * sieve_scale;
  c.sieve_refine_ns_per_row = d.sieve_refine_ns_per_row * sieve_scale;
  for (auto& [t_rt, vec, model] : times) log_rt += std::log(std::max(0.05 * t_rt, t_rt - c.sieve_ns_per_row_vector * vec) / model) / k;
  const double rt_scale = std::exp(log_rt);
  c.rt_refine_ns_per_row = d.rt_refine_ns_per_row * rt_scale;
  c.rt_ns_per_job = d.rt_ns_per_job * rt_scale;
  c.rt_slab_ns_per_row = d.rt_slab_ns_per_row * rt_scale;
  omp_set_num_threads(threads);
  std::printf("cpu rt scan, 2^%d rows x 3 columns, one thread: cpu-scan %.3f ns/row/predicate, sieve x%.2f (%.4f ns/row/vector, "
              "refine %.2f ns/row), rt x%.2f (refine %.2f ns/row, launch %.1f us, %.0f ns/slab row)\n",
              log2_rows, c.scan_ns_per_row_predicate, sieve_scale, c.sieve_ns_per_row_vector, c.sieve_refine_ns_per_row,
              rt_scale, c.rt_refine_ns_per_row, c.rt_ns_per_job * 1e-3, c.rt_slab_ns_per_row);
  return c;
}

}  // namespace raydb::bench
