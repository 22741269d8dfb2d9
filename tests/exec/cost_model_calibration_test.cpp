// The cost model's calibration: calibration.json round trip, the model using measured
// curves (interpolation in keys, the probe-gap axis of sorted batches, rows per
// lookup, the choice to sort), and defaults for a missing or corrupt file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "access/rt_scan/scan_types.h"
#include "common/error.h"
#include "plan/physical/calibration.h"
#include "plan/physical/cost_model.h"
#include "support/test_support.h"

namespace raydb::plan {
namespace {

// Points RAYDB_CALIBRATION at `path` for one test and restores the model afterwards.
class CalibrationPath {
 public:
  explicit CalibrationPath(const std::string& path) {
    if (const char* old = std::getenv("RAYDB_CALIBRATION")) old_ = old, had_ = true;
    setenv("RAYDB_CALIBRATION", path.c_str(), 1);
    reload_calibration();
  }
  ~CalibrationPath() {
    if (had_) setenv("RAYDB_CALIBRATION", old_.c_str(), 1);
    else unsetenv("RAYDB_CALIBRATION");
    reload_calibration();
  }

 private:
  std::string old_;
  bool had_ = false;
};

// Synthetic GPU curves at 2^16 and 2^26 keys measured with 2^20 lookups. Per order the
// value at each key count is `u` (unsorted), `s` (index sorts) or `p` (presorted);
// ranges add `per_row` ns per row beyond the first; misses cost `miss` x the point.
IndexCurves curves(std::array<double, 2> u, std::array<double, 2> s, std::array<double, 2> p, double per_row,
                   bool ranges = true, double miss = 1.0) {
  IndexCurves c;
  c.setup_ns = 1000;
  c.log2_lookups = 20;
  c.log2_keys = {16, 26};
  const std::array<std::array<double, 2>, 3> by_order = {u, s, p};
  for (int o = 0; o < 3; ++o) {
    const auto& v = by_order[size_t(o)];
    c.ns[IndexCurves::kPoint][size_t(o)] = {v[0], v[1]};
    c.ns[IndexCurves::kPointMiss][size_t(o)] = {v[0] * miss, v[1] * miss};
    if (ranges) {
      c.ns[IndexCurves::kRange16][size_t(o)] = {v[0] + 15 * per_row, v[1] + 15 * per_row};
      c.ns[IndexCurves::kRange256][size_t(o)] = {v[0] + 255 * per_row, v[1] + 255 * per_row};
    }
  }
  return c;
}

Calibration synthetic() {
  Calibration c;
  c.cpu = "test cpu";
  c.gpu = "test gpu";
  c.cpu_threads = 7;
  c.cpu_read_gbs = 12.5;
  c.gpu_read_gbs = 2000;
  c.host_to_device_gbs = 25;
  c.timestamp = 1234567;
  c.gpu_sort_ns_per_lookup = 0.25;
  c.cpu_sort_ns_per_lookup = 40;
  c.cpu_index_threads = 1;
  // GPU: rt is the cheapest unsorted range method at 2^26 keys, sorted the cheapest
  // once sorted; hash the cheapest for points unless presorted, where sorted wins.
  c.curves(ExecDevice::kGpu, IndexKind::kRt) = curves({0.10, 0.30}, {0.25, 0.28}, {0.09, 0.16}, 0.001);
  c.curves(ExecDevice::kGpu, IndexKind::kSorted) = curves({0.05, 0.40}, {0.22, 0.24}, {0.02, 0.03}, 0.0015);
  c.curves(ExecDevice::kGpu, IndexKind::kHash) = curves({0.02, 0.06}, {0.23, 0.26}, {0.03, 0.05}, 0, false, 3.0);
  c.curves(ExecDevice::kGpu, IndexKind::kSorted).sort_setup_ns = 250000;  // sorting a batch costs 0.25 ms more
  c.curves(ExecDevice::kCpu, IndexKind::kSorted) = curves({100, 300}, {150, 200}, {50, 80}, 2);
  // The CPU rt index measured with a fixed cost per unsorted batch (50 us at 2^16 keys,
  // 150 us at 2^26), which then replaces the setup for unsorted batches.
  IndexCurves& rt = c.curves(ExecDevice::kCpu, IndexKind::kRt) = curves({500, 900}, {600, 700}, {400, 450}, 5);
  for (auto& f : rt.unsorted_fixed_ns) f = {50000, 150000};
  return c;
}

LookupBatch batch(double lookups, bool ranges, double hits, bool presorted, bool may_sort = true) {
  LookupBatch b;
  b.lookups = lookups;
  b.ranges = ranges;
  b.hits_per_lookup = hits;
  b.presorted = presorted;
  b.may_sort = may_sort;
  return b;
}

// The kind the model picks among `kinds` and its estimate.
std::pair<IndexKind, LookupEstimate> pick(ExecDevice dev, uint64_t keys, const LookupBatch& b) {
  std::pair<IndexKind, LookupEstimate> best{IndexKind::kRt, {std::numeric_limits<double>::infinity(), false, false}};
  for (IndexKind k : {IndexKind::kRt, IndexKind::kSorted, IndexKind::kHash}) {
    const LookupEstimate e = estimate_lookup(k, dev, keys, b);
    if (e.ms < best.second.ms) best = {k, e};
  }
  return best;
}

TEST(Calibration, RoundTripThroughTheFile) {
  test::TempDir dir;
  const std::string path = dir.file("sub/calibration.json");
  const Calibration c = synthetic();
  c.save(path);
  std::string error;
  const std::optional<Calibration> r = Calibration::load(path, &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(error, "");
  EXPECT_EQ(r->cpu, c.cpu);
  EXPECT_EQ(r->gpu, c.gpu);
  EXPECT_EQ(r->cpu_threads, c.cpu_threads);
  EXPECT_EQ(r->cpu_read_gbs, c.cpu_read_gbs);
  EXPECT_EQ(r->gpu_read_gbs, c.gpu_read_gbs);
  EXPECT_EQ(r->host_to_device_gbs, c.host_to_device_gbs);
  EXPECT_EQ(r->timestamp, c.timestamp);
  EXPECT_EQ(r->gpu_sort_ns_per_lookup, c.gpu_sort_ns_per_lookup);
  EXPECT_EQ(r->cpu_sort_ns_per_lookup, c.cpu_sort_ns_per_lookup);
  EXPECT_EQ(r->cpu_index_threads, c.cpu_index_threads);
  for (ExecDevice d : {ExecDevice::kCpu, ExecDevice::kGpu})
    for (IndexKind k : {IndexKind::kRt, IndexKind::kSorted, IndexKind::kHash}) {
      const IndexCurves& a = c.curves(d, k);
      const IndexCurves& b = r->curves(d, k);
      EXPECT_EQ(a.setup_ns, b.setup_ns);
      EXPECT_EQ(a.sort_setup_ns, b.sort_setup_ns);
      EXPECT_EQ(a.log2_lookups, b.log2_lookups);
      EXPECT_EQ(a.log2_keys, b.log2_keys);
      for (int w = 0; w < IndexCurves::kWorkloads; ++w) {
        for (int o = 0; o < 3; ++o) EXPECT_EQ(a.ns[size_t(w)][size_t(o)], b.ns[size_t(w)][size_t(o)]) << w << " " << o;
        EXPECT_EQ(a.unsorted_fixed_ns[size_t(w)], b.unsorted_fixed_ns[size_t(w)]) << w;
      }
    }
}

// The RT view constants round trip; files written before group, launch and star
// constants existed read them as 0 (the star formula as is); the costs use them all.
TEST(Calibration, RtViewConstants) {
  test::TempDir dir;
  const std::string path = dir.file("c.json");
  Calibration c = synthetic();
  const size_t g = size_t(ExecDevice::kGpu);
  c.view_ray_ns[g] = 0.5;
  c.view_hit_ns[g] = 2;
  c.view_group_ns[g] = 10;
  c.view_launch_ns[g] = 1e5;
  c.view_star_scale[g] = 0.01;
  c.view_star_fixed_ns[g] = 2e5;
  c.view_source = "test";
  c.save(path);
  std::string error;
  const std::optional<Calibration> r = Calibration::load(path, &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->view_group_ns[g], 10);
  EXPECT_EQ(r->view_launch_ns[g], 1e5);
  EXPECT_EQ(r->view_star_scale[g], 0.01);
  EXPECT_EQ(r->view_star_fixed_ns[g], 2e5);
  EXPECT_EQ(r->view_source, "test");
  use_calibration(std::make_shared<const Calibration>(*r));
  // 0.1 ms + 1000 rays x 0.5 ns + 100 hits x 2 ns + 10 groups x 10 ns.
  EXPECT_NEAR(*view_cost_ms(ExecDevice::kGpu, 1000, 100, 10), 0.1 + 0.0005 + 0.0002 + 0.0001, 1e-12);
  EXPECT_FALSE(view_cost_ms(ExecDevice::kCpu, 1000, 100, 10).has_value());  // not measured there
  EXPECT_NEAR(view_star_cost_ms(ExecDevice::kGpu, 50), 0.2 + 0.5, 1e-12);
  EXPECT_EQ(view_star_cost_ms(ExecDevice::kCpu, 50), 50);
  use_calibration(nullptr);
  nlohmann::json j = nlohmann::json::parse(test::read_file(path));
  j["rt_view"]["gpu"] = {{"ray_ns", 1.0}, {"hit_ns", 1.0}};  // an older file
  const Calibration old = Calibration::from_json(j);
  EXPECT_EQ(old.view_launch_ns[g], 0);
  EXPECT_EQ(old.view_star_scale[g], 0);
  j["rt_view"]["gpu"]["star_scale"] = -1;
  EXPECT_THROW(Calibration::from_json(j), Error);
}

// The RT scan constants: absent from older files (defaults), round trip when measured,
// and rt_scan_cost_ms reads them: each method's cost is its unit counts times them.
TEST(Calibration, RtScanConstants) {
  test::TempDir dir;
  Calibration c = synthetic();
  c.save(dir.file("old.json"));
  std::string error;
  auto old = Calibration::load(dir.file("old.json"), &error);
  ASSERT_TRUE(old) << error;
  EXPECT_FALSE(old->rt_scan_cpu.measured);
  c.rt_scan_cpu = {true, 0.5, 0.02, 7.0, 30.0, 40000.0, 0.0};
  c.rt_scan_gpu = {true, 0.001, 0.0002, 0.1, 2.0, 150000.0, 45000.0};
  c.save(dir.file("new.json"));
  auto r = Calibration::load(dir.file("new.json"), &error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->rt_scan_cpu.measured);
  EXPECT_EQ(r->rt_scan_cpu.scan_ns_per_row_predicate, 0.5);
  EXPECT_EQ(r->rt_scan_cpu.sieve_ns_per_row_vector, 0.02);
  EXPECT_EQ(r->rt_scan_cpu.sieve_refine_ns_per_row, 7.0);
  EXPECT_EQ(r->rt_scan_cpu.rt_refine_ns_per_row, 30.0);
  EXPECT_EQ(r->rt_scan_cpu.rt_ns_per_job, 40000.0);
  EXPECT_TRUE(r->rt_scan_gpu.measured);
  EXPECT_EQ(r->rt_scan_gpu.scan_ns_per_row_predicate, 0.001);
  EXPECT_EQ(r->rt_scan_gpu.rt_ns_per_job, 150000.0);
  EXPECT_EQ(r->rt_scan_gpu.fixed_ns, 45000.0);

  use_calibration(std::make_shared<const Calibration>(*r));
  RtScanWork w;
  w.rows = 1000000;
  w.predicates = 3;
  w.jobs = 1;
  w.sieve_vectors = 6;
  w.residual_rows = 5000;
  w.matches = 100;
  const double to_rows = (1e6 * 0.02 + 100) * 1e-6;  // bit vector -> row ids
  const auto cpu = ExecDevice::kCpu, gpu = ExecDevice::kGpu;
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kCpuScan, w), 0.5 * 3e6 * 1e-6 + to_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kCpuSieve, w), (0.02 * 6e6 + 7.0 * 5000) * 1e-6 + to_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kRt, w), (0.02 * 6e6 + 30.0 * 5000 + 40000) * 1e-6 + to_rows, 1e-9);
  // The GPU's own constants (device time; a fixed part per evaluation).
  const double gpu_rows = (1e6 * 0.0002 + 100 * 0.004) * 1e-6;
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuScan, w), (45000 + 0.001 * 3e6) * 1e-6 + gpu_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w), (45000 + 0.0002 * 6e6 + 0.1 * 5000) * 1e-6 + gpu_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kRt, w), (45000 + 0.0002 * 6e6 + 2.0 * 5000 + 150000) * 1e-6 + gpu_rows, 1e-9);
  // gpu-scan per full-column read: 1.2 columns (later ones only where rows still match).
  w.scan_columns = 1.2;
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuScan, w), (45000 + 0.001 * 1.2e6) * 1e-6 + gpu_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kCpuScan, w), 0.5 * 3e6 * 1e-6 + to_rows, 1e-9);  // CPU: per predicate
  // Embree's refine by the rows inside the residual slabs its rays cross (CPU, per-row form).
  w.slab_rows = 2000;
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kRt, w), (0.02 * 6e6 + 30.0 * 5000 + 40000) * 1e-6 + to_rows, 1e-9);
  c.rt_scan_cpu.rt_slab_ns_per_row = 800.0;
  use_calibration(std::make_shared<const Calibration>(c));
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kRt, w),
              (0.02 * 6e6 + 30.0 * 5000 + 40000 + 800.0 * 2000) * 1e-6 + to_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(cpu, RtScanMethod::kCpuSieve, w), (0.02 * 6e6 + 7.0 * 5000) * 1e-6 + to_rows, 1e-9);
  // Uncalibrated, the compiled-in CPU constants charge it too.
  use_calibration(nullptr);
  const double with_slabs = rt_scan_cost_ms(cpu, RtScanMethod::kRt, w);
  w.slab_rows = 0;
  EXPECT_GT(default_rt_scan_constants(cpu).rt_slab_ns_per_row, 0.0);
  EXPECT_NEAR(with_slabs - rt_scan_cost_ms(cpu, RtScanMethod::kRt, w),
              2000 * default_rt_scan_constants(cpu).rt_slab_ns_per_row * 1e-6, 1e-9);
  c.rt_scan_cpu.rt_slab_ns_per_row = 0.0;
  use_calibration(std::make_shared<const Calibration>(*r));
  // A refine launch costs per job with rows left to refine (the estimate's refine_jobs).
  c.rt_scan_gpu.sieve_refine_job_ns = 20000.0;
  use_calibration(std::make_shared<const Calibration>(c));
  w.jobs = 2;
  w.refine_jobs = 1;
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w),
              (45000 + 0.0002 * 6e6 + 0.1 * 5000 + 20000) * 1e-6 + gpu_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kRt, w), (45000 + 0.0002 * 6e6 + 2.0 * 5000 + 150000) * 1e-6 + gpu_rows,
              1e-9);
  w.refine_jobs = 0;  // not counted (work built by hand): every job refines when rows remain
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kRt, w), (45000 + 0.0002 * 6e6 + 2.0 * 5000 + 300000) * 1e-6 + gpu_rows,
              1e-9);
  w.jobs = 1;
  // Nothing left to refine after sieving: no RT launch.
  w.residual_rows = 0;
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kRt, w), rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w), 1e-12);
  // A filter folded to a constant: every method is the same fill, the fixed part only.
  w.predicates = 0;
  for (RtScanMethod m : {RtScanMethod::kGpuScan, RtScanMethod::kGpuSieve, RtScanMethod::kRt})
    EXPECT_NEAR(rt_scan_cost_ms(gpu, m, w), 45000 * 1e-6 + gpu_rows, 1e-9);
  use_calibration(nullptr);
  // A calibration file with a malformed rt_scan_cpu is rejected with the field's name.
  nlohmann::json j = nlohmann::json::parse(r->to_json().dump());
  j["rt_scan_cpu"].erase("rt_ns_per_job");
  try {
    Calibration::from_json(j);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rt_ns_per_job"), std::string::npos) << e.what();
  }
}

// The sieve by the memory it touches (sieve_pass_ns_per_row and the members after it):
// absent from files written before them (0: the per-vector form), a round trip when
// set, and rt_scan_cost_ms then costs the sieve methods by passes, launches, refine
// sectors and slab rows, in place of vectors and residual rows.
TEST(Calibration, RtScanMemoryTerms) {
  test::TempDir dir;
  Calibration c = synthetic();
  c.rt_scan_gpu = {true, 0.001, 0.0002, 0.1, 2.0, 150000.0, 45000.0, 20000.0};
  nlohmann::json old = c.to_json();
  for (const char* k : {"sieve_fixed_ns", "sieve_pass_ns_per_row", "sieve_job_ns", "sieve_refine_ns_per_sector",
                        "rt_slab_ns_per_row"}) {
    ASSERT_TRUE(old["rt_scan_gpu"].contains(k)) << k;
    old["rt_scan_gpu"].erase(k);  // a file of session 12
  }
  const Calibration before = Calibration::from_json(old);
  EXPECT_TRUE(before.rt_scan_gpu.measured);
  EXPECT_EQ(before.rt_scan_gpu.sieve_refine_job_ns, 20000.0);
  EXPECT_EQ(before.rt_scan_gpu.sieve_pass_ns_per_row, 0);
  EXPECT_EQ(before.rt_scan_gpu.sieve_fixed_ns, 0);
  EXPECT_EQ(before.rt_scan_gpu.rt_slab_ns_per_row, 0);

  c.rt_scan_gpu.sieve_fixed_ns = 36000.0;
  c.rt_scan_gpu.sieve_pass_ns_per_row = 0.0004;
  c.rt_scan_gpu.sieve_job_ns = 22000.0;
  c.rt_scan_gpu.sieve_refine_ns_per_sector = 0.02;
  c.rt_scan_gpu.rt_slab_ns_per_row = 0.5;
  c.save(dir.file("new.json"));
  std::string error;
  const auto r = Calibration::load(dir.file("new.json"), &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->rt_scan_gpu.sieve_fixed_ns, 36000.0);
  EXPECT_EQ(r->rt_scan_gpu.sieve_pass_ns_per_row, 0.0004);
  EXPECT_EQ(r->rt_scan_gpu.sieve_job_ns, 22000.0);
  EXPECT_EQ(r->rt_scan_gpu.sieve_refine_ns_per_sector, 0.02);
  EXPECT_EQ(r->rt_scan_gpu.rt_slab_ns_per_row, 0.5);
  EXPECT_FALSE(r->rt_scan_cpu.measured);

  RtScanWork w;
  w.rows = 1000000;
  w.predicates = 3;
  w.jobs = 1;
  w.refine_jobs = 1;
  w.sieve_vectors = 6;
  w.residual_rows = 5000;
  w.matches = 100;
  w.scan_columns = 1.28;
  w.sieve_passes = 1.28;
  w.refine_sectors = 3 * 125000 * access::rt_scan::touched_share(0.005, 8);
  w.slab_rows = 400;
  const auto gpu = ExecDevice::kGpu;
  const double gpu_rows = (1e6 * 0.0002 + 100 * 0.004) * 1e-6;
  use_calibration(std::make_shared<const Calibration>(before));  // per vector and residual row, as in session 12
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w), (45000 + 0.0002 * 6e6 + 0.1 * 5000 + 20000) * 1e-6 + gpu_rows,
              1e-9);
  use_calibration(std::make_shared<const Calibration>(*r));
  const double sieve = 36000 + 0.0004 * 1.28e6 + 22000;
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w), (sieve + 20000 + 0.02 * w.refine_sectors) * 1e-6 + gpu_rows,
              1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kRt, w), (sieve + 150000 + 2.0 * 5000 + 0.5 * 400) * 1e-6 + gpu_rows, 1e-9);
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kGpuScan, w), (45000 + 0.001 * 1.28e6) * 1e-6 + gpu_rows, 1e-9);
  // The refine's cost rises with the residual share and saturates: every sector of the
  // group's columns read once at r = 1.
  double last = 0;
  for (double r : {0.0, 0.001, 0.01, 0.1, 0.5, 1.0}) {
    w.residual_rows = uint64_t(r * 1e6);
    w.refine_jobs = r > 0;
    w.refine_sectors = 3 * 125000 * access::rt_scan::touched_share(r, 8);
    const double ms = rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w);
    EXPECT_GE(ms, last) << r;
    last = ms;
  }
  EXPECT_NEAR(last, (sieve + 20000 + 0.02 * 375000) * 1e-6 + gpu_rows, 1e-9);
  // The sieve alone (nothing to refine): rt costs what gpu-sieve costs.
  w.residual_rows = 0, w.refine_jobs = 0, w.refine_sectors = 0, w.slab_rows = 0;
  EXPECT_NEAR(rt_scan_cost_ms(gpu, RtScanMethod::kRt, w), rt_scan_cost_ms(gpu, RtScanMethod::kGpuSieve, w), 1e-12);
  use_calibration(nullptr);
  old["rt_scan_gpu"]["sieve_pass_ns_per_row"] = -1;  // present but bad: rejected by name
  try {
    Calibration::from_json(old);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sieve_pass_ns_per_row"), std::string::npos) << e.what();
  }
}

TEST(Calibration, TheModelUsesTheStoredFile) {
  test::TempDir dir;
  const std::string path = dir.file("calibration.json");
  synthetic().save(path);
  CalibrationPath use(path);
  ASSERT_NE(active_calibration(), nullptr);
  // Unsorted points, 2^21 keys: halfway (in log2 keys) between the 2^16 and 2^26
  // measurements; hash 0.04 ns per lookup, setup 1000 ns.
  const double n = double(1 << 20);
  const LookupEstimate e = estimate_lookup(IndexKind::kHash, ExecDevice::kGpu, uint64_t{1} << 21, batch(n, false, 1, false, false));
  EXPECT_TRUE(e.calibrated);
  EXPECT_FALSE(e.sort_first);
  EXPECT_NEAR(e.ms, (1000 + 0.04 * n) * 1e-6, 1e-9);
  // The CPU API of the executor reads the CPU curves: sorted index, 2^26 keys, 2^24
  // lookups: unsorted 300 ns; sorted at gap 2^2, between the measured gaps 2^-4 (150)
  // and 2^6 (200): 180 ns, so the model sorts.
  const double m = double(1 << 24);
  EXPECT_NEAR(lookup_cost_ms(IndexKind::kSorted, uint64_t{1} << 26, m), (1000 + 180 * m) * 1e-6, 1e-6);
  // GPU scans use the measured read bandwidth: 2000 GB/s = 2000 bytes per ns.
  EXPECT_NEAR(scan_cost_ms(ExecDevice::kGpu, 1000, 4e6, 1), scan_cost_ms(ExecDevice::kGpu, 1000, 0, 1) + 2000 * 1e-6, 1e-9);
}

TEST(Calibration, ModelPicksOnSyntheticCurves) {
  use_calibration(std::make_shared<const Calibration>(synthetic()));
  const uint64_t big = uint64_t{1} << 26, small = uint64_t{1} << 16;
  const double n = double(1 << 20);
  // Unsorted points: hash everywhere, never sorted first (0.23+ > 0.06).
  auto p = pick(ExecDevice::kGpu, big, batch(n, false, 1, false));
  EXPECT_EQ(p.first, IndexKind::kHash);
  EXPECT_FALSE(p.second.sort_first);
  // Presorted points into 2^26 keys (gap 2^6 = the last measured point): sorted 0.03
  // beats hash 0.05.
  p = pick(ExecDevice::kGpu, big, batch(n, false, 1, true));
  EXPECT_EQ(p.first, IndexKind::kSorted);
  EXPECT_NEAR(p.second.ms, (1000 + 0.03 * n) * 1e-6, 1e-9);
  // The same index with 2^30 lookups (gap 2^-4, below the first measured point) costs
  // the first point's 0.02 per lookup: sorted batches follow the gap, not the size.
  const double m = double(uint64_t{1} << 30);
  EXPECT_NEAR(estimate_lookup(IndexKind::kSorted, ExecDevice::kGpu, big, batch(m, false, 1, true)).ms,
              (1000 + 0.02 * m) * 1e-6, 1e-6);
  // Unsorted ranges of 16 rows at 2^26 keys, not sorted: rt (0.315) beats sorted (0.4225).
  p = pick(ExecDevice::kGpu, big, batch(n, true, 16, false, false));
  EXPECT_EQ(p.first, IndexKind::kRt);
  EXPECT_FALSE(p.second.sort_first);
  // ... and when the index may sort a batch of 2^24 (gap 2^2): sorted after sorting
  // (0.232 + 15 * 0.0015 per lookup + 0.25 ms) beats rt unsorted (0.315).
  p = pick(ExecDevice::kGpu, big, batch(double(1 << 24), true, 16, false, true));
  EXPECT_EQ(p.first, IndexKind::kSorted);
  EXPECT_TRUE(p.second.sort_first);
  // A small batch of the same ranges does not pay the sort's fixed 0.25 ms: rt, unsorted.
  p = pick(ExecDevice::kGpu, big, batch(1024, true, 16, false, true));
  EXPECT_EQ(p.first, IndexKind::kRt);
  EXPECT_FALSE(p.second.sort_first);
  // At 2^16 keys unsorted ranges are cheapest in sorted (0.0725 vs 0.115).
  p = pick(ExecDevice::kGpu, small, batch(n, true, 16, false, false));
  EXPECT_EQ(p.first, IndexKind::kSorted);
  // Rows per lookup: 1024-row ranges extrapolate the 16 -> 256 slope.
  const LookupEstimate r1024 = estimate_lookup(IndexKind::kRt, ExecDevice::kGpu, big, batch(n, true, 1024, false, false));
  EXPECT_NEAR(r1024.ms, (1000 + (0.30 + 1023 * 0.001) * n) * 1e-6, 1e-6);
  // Hash answers no ranges; misses cost what the miss curve says (3x the point).
  EXPECT_TRUE(std::isinf(lookup_cost_ms(IndexKind::kHash, ExecDevice::kGpu, big, batch(n, true, 16, false))));
  EXPECT_NEAR(estimate_lookup(IndexKind::kHash, ExecDevice::kGpu, big, batch(n, false, 0.5, false, false)).ms,
              (1000 + (0.5 * 0.06 + 0.5 * 0.18) * n) * 1e-6, 1e-6);
  // A measured fixed cost: an unsorted batch of 1000 points into 2^21 CPU rt keys
  // costs the interpolated fixed 100 us + 1000 x 700 ns (no separate setup).
  EXPECT_NEAR(estimate_lookup(IndexKind::kRt, ExecDevice::kCpu, uint64_t{1} << 21, batch(1000, false, 1, false, false)).ms,
              (100000 + 1000 * 700) * 1e-6, 1e-9);
  use_calibration(nullptr);
}

TEST(Calibration, MissingFileMeansDefaults) {
  test::TempDir dir;
  use_calibration(nullptr);
  const uint64_t keys = uint64_t{1} << 26;
  const LookupBatch b = batch(double(1 << 27), true, 16, false);
  const double defaults = lookup_cost_ms(IndexKind::kRt, ExecDevice::kGpu, keys, b);
  const double cpu_defaults = lookup_cost_ms(IndexKind::kSorted, keys, 100.0);
  CalibrationPath use(dir.file("does-not-exist.json"));
  testing::internal::CaptureStderr();
  EXPECT_EQ(active_calibration(), nullptr);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  const LookupEstimate e = estimate_lookup(IndexKind::kRt, ExecDevice::kGpu, keys, b);
  EXPECT_FALSE(e.calibrated);
  EXPECT_EQ(e.ms, defaults);
  EXPECT_EQ(lookup_cost_ms(IndexKind::kSorted, keys, 100.0), cpu_defaults);
}

TEST(Calibration, CorruptFileWarnsOnceAndMeansDefaults) {
  test::TempDir dir;
  use_calibration(nullptr);
  const uint64_t keys = uint64_t{1} << 20;
  const LookupBatch b = batch(1000, false, 1, false);
  const double defaults = lookup_cost_ms(IndexKind::kHash, ExecDevice::kGpu, keys, b);
  const std::string bad[] = {
      "{ not json",
      "[1, 2, 3]",
      R"({"format": 99})",
      R"({"index": {"gpu": {"hash": {"setup_ns": "x", "log2_keys": [16]}}}})",
      R"({"index": {"gpu": {"hash": {"setup_ns": 1, "log2_lookups": 20, "log2_keys": [16, 26], "point": {"unsorted": [0.1]}}}}})",
      R"({"index": {"gpu": {"hash": {"setup_ns": 1, "log2_lookups": 20, "log2_keys": [26, 16], "point": {"unsorted": [0.1, 0.2]}}}}})",
      R"({"index": {"gpu": {"sorted": {"setup_ns": -5, "log2_lookups": 20, "log2_keys": [16], "point": {"unsorted": [0.1]}}}}})",
  };
  for (const std::string& text : bad) {
    const std::string path = dir.file("calibration.json");
    test::write_file(path, text);
    CalibrationPath use(path);
    testing::internal::CaptureStderr();
    EXPECT_EQ(active_calibration(), nullptr) << text;
    EXPECT_EQ(lookup_cost_ms(IndexKind::kHash, ExecDevice::kGpu, keys, b), defaults) << text;
    EXPECT_EQ(active_calibration(), nullptr) << text;
    const std::vector<std::string> lines = test::split_lines(testing::internal::GetCapturedStderr());
    ASSERT_EQ(lines.size(), 1u) << text;
    EXPECT_NE(lines[0].find("warning: ignoring calibration"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find(path), std::string::npos) << lines[0];
  }
}

}  // namespace
}  // namespace raydb::plan
