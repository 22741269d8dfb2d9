#include "plan/physical/cost_model.h"

#include "plan/physical/default_calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>

namespace raydb::plan {


const CostConstants& cost_constants() {
  // Defaults for machines whose CPU indexes were never calibrated (`raydb calibrate`
  // replaces the three lookup constants and index_setup_ns by measured curves).
  // Measured on the development machine (2-core x86-64 VM, Release, --threads 1):
  static const CostConstants c{
      // `raydb query --threads 1 --timing` on SSB SF 0.1 (600k lineorder rows):
      // count(*) with `lo_orderdate = 19940101` 0.35 ms, without a filter 0.11 ms
      // -> (0.35 - 0.11) / 600k = 0.4 ns per row and filter.
      .scan_ns_per_row = 0.4,
      // Index scans on the same data through a sorted index, --threads 1, median of
      // 20: `lo_orderdate between 19940101 and 19940331` (22.7k rows) 0.29 ms,
      // a point (237 rows) 0.012 ms -> (0.29 - 0.012) / 22.7k = 12 ns per candidate
      // row (row ids materialized, sorted, gathered instead of streamed).
      .fetch_ns_per_row = 12.0,
      // `raydb bench index --log-keys 20 --log-lookups 14 --methods rt,sa,hash
      // --sorted-probes 0 --threads 1`: RT (Embree, triangles, sorted+compressed)
      // 0.91 M lookups/s = 1.1 us at 2^20 keys -> 55 ns per level; sorted array
      // 5.8 M/s = 172 ns -> 8.6 ns per level; hash 42 M/s -> 24 ns. At 2^12 keys
      // the same run gives 121 ns (RT) and 47 ns (sorted): per level the constants
      // overestimate small (cache-resident) indexes, RT more than sorted.
      .rt_ns_per_level = 55.0,
      .sorted_ns_per_level = 8.6,
      .hash_ns_per_lookup = 24.0,
      // JoinTable build (key encode, dense array / CSR) and probe: not measured
      // separately; these values reproduce the measured 0.062 ms of a 3000-row
      // customer hash join probed by 2.4k index-scanned lineorder rows (SF 0.1).
      .join_build_ns_per_row = 10.0,
      .join_probe_ns_per_row = 3.0,
      // Sorting the lookups, launching, the prefix sum: at most ~5 us per batch (a
      // whole point query through the sorted index, parse to result, took 12 us).
      .index_setup_ns = 5000.0,
  };
  return c;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double levels(uint64_t keys) { return std::max(1.0, std::log2(double(std::max<uint64_t>(keys, 2)))); }

// Piecewise linear through (xs[i], ys[i]); below the first point the first value (a
// smaller index is not slower), beyond the last the last segment's slope (never
// negative: a deeper index is not faster).
double interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
  const size_t n = std::min(xs.size(), ys.size());
  if (n == 0) return kInf;
  if (n == 1 || x <= xs[0]) return ys[0];
  for (size_t i = 1; i < n; ++i)
    if (x <= xs[i]) return ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
  const double slope = std::max(0.0, (ys[n - 1] - ys[n - 2]) / (xs[n - 1] - xs[n - 2]));
  return ys[n - 1] + slope * (x - xs[n - 1]);
}

// ns per lookup of `c` in probe order `o` for an index of 2^lk keys and a batch of
// 2^ll lookups with `hits` expected rows per lookup. Curves are read at x = lk
// (unsorted) or lk - ll (sorted, IndexCurves::axis); across rows per lookup the cost
// is piecewise linear through the measured workloads (0 rows: misses, 1: points, 16
// and 256: ranges; beyond 256 the last slope). The measurements show why rows are not
// a constant per-row term: the first rows of a range share the search's cache lines,
// so 1 -> 16 rows costs less per row than 16 -> 256. Points only interpolate towards
// misses (hit rate < 1) or towards ranges (duplicates). kInf when the workload was
// not measured (a hash index answers no ranges).
double per_lookup_ns(const IndexCurves& c, ProbeOrder o, double lk, double ll, bool ranges, double hits) {
  const std::vector<double> xs = c.axis(o);
  const double x = o == ProbeOrder::kUnsorted ? lk : lk - ll;
  auto at = [&](int w) {
    const auto& v = c.at(w, o);
    if (v.empty()) return kInf;
    double ns = interpolate(xs, v, x);
    const auto& fixed = c.unsorted_fixed_ns[size_t(w)];
    if (o == ProbeOrder::kUnsorted && !fixed.empty()) ns += interpolate(xs, fixed, x) / std::exp2(ll);
    return ns;
  };
  const double point = at(IndexCurves::kPoint);
  if (!ranges && hits < 1) {
    const double miss = at(IndexCurves::kPointMiss);
    const double h = std::max(0.0, hits);
    return miss == kInf || point == kInf ? point : h * point + (1 - h) * miss;
  }
  std::vector<double> hs, ns;
  if (point < kInf) hs.push_back(1), ns.push_back(point);
  for (int w : {IndexCurves::kRange16, IndexCurves::kRange256}) {
    const double v = at(w);
    if (v < kInf) hs.push_back(IndexCurves::kHits[size_t(w)]), ns.push_back(v);
  }
  const bool have_ranges = hs.size() > 1 || (hs.size() == 1 && point == kInf);
  if (ranges && !have_ranges) return kInf;
  if (!ranges && (hits <= 1 || !have_ranges)) return point;
  return interpolate(hs, ns, std::max(1.0, hits));
}

std::mutex g_mutex;
std::shared_ptr<const Calibration> g_calibration;
bool g_loaded = false;

}  // namespace

std::shared_ptr<const Calibration> active_calibration() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_loaded) {
    g_loaded = true;
    std::string error;
    const std::string path = Calibration::default_path();
    if (auto c = Calibration::load(path, &error)) {
      g_calibration = std::make_shared<const Calibration>(std::move(*c));
    } else if (!error.empty()) {
      std::fprintf(stderr, "warning: ignoring calibration (%s); using built-in cost constants\n", error.c_str());
    }
  }
  return g_calibration;
}

void use_calibration(std::shared_ptr<const Calibration> calibration) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_calibration = std::move(calibration);
  g_loaded = true;
}

void reload_calibration() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_calibration.reset();
  g_loaded = false;
}

namespace {

// The legacy CPU constants: unsorted points, no per-row term (fetch_cost_ms costs rows).
double legacy_cpu_ns(IndexKind kind, uint64_t keys) {
  const CostConstants& c = cost_constants();
  switch (kind) {
    case IndexKind::kRt: return c.rt_ns_per_level * levels(keys);
    case IndexKind::kSorted: return c.sorted_ns_per_level * levels(keys);
    case IndexKind::kHash: return c.hash_ns_per_lookup;
    case IndexKind::kRtScan: return kInf;  // answers filters, not lookups (rt_scan_cost_ms)
  }
  return kInf;
}

}  // namespace

LookupEstimate estimate_lookup(IndexKind kind, ExecDevice dev, uint64_t keys, const LookupBatch& b) {
  if (kind == IndexKind::kRtScan) return {kInf, false, false};  // no lookups, no curves
  const auto cal = active_calibration();
  const IndexCurves* c = cal ? &cal->curves(dev, kind) : nullptr;
  LookupEstimate e;
  if (c && !c->empty()) {
    e.calibrated = true;
  } else if (dev == ExecDevice::kGpu) {
    c = &default_gpu_calibration().curves(dev, kind);  // the H200, default_calibration.cpp
  } else {
    // Never calibrated CPU: the development machine's constants (hash answers no ranges).
    if (kind == IndexKind::kHash && b.ranges) return {kInf, false, false};
    e.ms = (cost_constants().index_setup_ns + legacy_cpu_ns(kind, keys) * b.lookups) * 1e-6;
    return e;
  }
  const double lk = levels(keys), ll = std::log2(std::max(1.0, b.lookups));
  auto cost = [&](ProbeOrder o) {
    if (c->at(IndexCurves::kPoint, o).empty() && c->at(IndexCurves::kRange16, o).empty()) return kInf;
    // An unsorted curve with its fixed part measured carries the batch setup in it.
    // Sorting adds its own fixed cost (the sort's launches and temporary storage:
    // ~0.25 ms on the H200, which decides small batches).
    const bool fixed = o == ProbeOrder::kUnsorted && !c->unsorted_fixed_ns[IndexCurves::kPoint].empty();
    const double setup = fixed ? 0 : o == ProbeOrder::kIndexSorts && c->sort_setup_ns > 0 ? c->sort_setup_ns : c->setup_ns;
    return (setup + per_lookup_ns(*c, o, lk, ll, b.ranges, b.hits_per_lookup) * b.lookups) * 1e-6;
  };
  if (b.presorted) {
    e.ms = cost(ProbeOrder::kPresorted);
    if (e.ms == kInf) e.ms = cost(ProbeOrder::kUnsorted);  // not measured: no better than unsorted
    return e;
  }
  e.ms = cost(ProbeOrder::kUnsorted);
  if (b.may_sort) {
    const double sorted = cost(ProbeOrder::kIndexSorts);
    if (sorted < e.ms) e.ms = sorted, e.sort_first = true;
  }
  return e;
}

double lookup_cost_ms(IndexKind kind, ExecDevice dev, uint64_t keys, const LookupBatch& b) {
  return estimate_lookup(kind, dev, keys, b).ms;
}

double lookup_cost_ms(IndexKind kind, uint64_t keys, double lookups) {
  LookupBatch b;
  b.lookups = lookups;
  return lookup_cost_ms(kind, ExecDevice::kCpu, keys, b);
}

double scan_cost_ms(uint64_t rows, int filters) {
  return cost_constants().scan_ns_per_row * double(rows) * std::max(1, filters) * 1e-6;
}

double index_scan_cost_ms(IndexKind kind, uint64_t keys, double lookups, double candidates) {
  return lookup_cost_ms(kind, keys, lookups) + cost_constants().fetch_ns_per_row * candidates * 1e-6;
}

double hash_join_cost_ms(uint64_t build_rows, int build_filters, double kept, double probes) {
  const CostConstants& c = cost_constants();
  return scan_cost_ms(build_rows, build_filters) + (c.join_build_ns_per_row * kept + c.join_probe_ns_per_row * probes) * 1e-6;
}

double index_join_cost_ms(IndexKind kind, uint64_t keys, double probes, double matches) {
  return lookup_cost_ms(kind, keys, probes) + cost_constants().fetch_ns_per_row * matches * 1e-6;
}

namespace {
constexpr double kGpuLaunchNs = 20000.0;         // a few kernel launches + a copy back
constexpr double kGpuReadBytesPerNs = 4000.0;    // ~4 TB/s device read bandwidth (H200, measured 4.3)
constexpr double kGpuFetchNsPerRow = 0.05;       // write + gather one candidate row id
}  // namespace

double scan_cost_ms(ExecDevice dev, uint64_t rows, double bytes, int filters) {
  if (dev == ExecDevice::kCpu) return scan_cost_ms(rows, filters);
  const auto cal = active_calibration();
  const double bytes_per_ns = cal && cal->gpu_read_gbs > 0 ? cal->gpu_read_gbs : kGpuReadBytesPerNs;  // GB/s = B/ns
  return (kGpuLaunchNs + bytes / bytes_per_ns) * 1e-6;
}

// Measured on the H200 at SSB SF 20 (`raydb bench query`, docs/benchmarks/sql-index-h200.md):
// a lineorder point query through sa-gpu took 0.132 ms of device time, an IN list of 6
// keys 0.196 and a 101-key range 0.183, where the model's lookups + fetch + filters
// came to 0.07-0.08 ms; the rest (~0.11 ms) is the step's fixed work.
constexpr double kGpuIndexStepNs = 110000.0;

double index_step_overhead_ms(ExecDevice dev) { return dev == ExecDevice::kGpu ? kGpuIndexStepNs * 1e-6 : 0.0; }

double fetch_cost_ms(ExecDevice dev, double candidates) {
  return (dev == ExecDevice::kCpu ? cost_constants().fetch_ns_per_row : kGpuFetchNsPerRow) * candidates * 1e-6;
}

std::optional<double> view_cost_ms(ExecDevice dev, double rays, double hits, double groups) {
  const std::shared_ptr<const Calibration> c = active_calibration();
  const size_t d = size_t(dev);
  if (!c || (c->view_ray_ns[d] <= 0 && c->view_hit_ns[d] <= 0)) return std::nullopt;
  return (c->view_launch_ns[d] + rays * c->view_ray_ns[d] + hits * c->view_hit_ns[d] + groups * c->view_group_ns[d]) * 1e-6;
}

double view_star_cost_ms(ExecDevice dev, double formula_ms) {
  const std::shared_ptr<const Calibration> c = active_calibration();
  const size_t d = size_t(dev);
  if (!c || c->view_star_scale[d] <= 0) return formula_ms;
  return c->view_star_fixed_ns[d] * 1e-6 + c->view_star_scale[d] * formula_ms;
}

const char* rt_scan_method_name(RtScanMethod m) {
  switch (m) {
    case RtScanMethod::kRt: return "rt";
    case RtScanMethod::kCpuScan: return "cpu-scan";
    case RtScanMethod::kCpuSieve: return "cpu-sieve";
    case RtScanMethod::kGpuScan: return "gpu-scan";
    case RtScanMethod::kGpuSieve: return "gpu-sieve";
  }
  return "?";
}

// Never calibrated. CPU: measured on the development machine (2-core x86-64 VM shared
// with other builds, load ~3.5, Release, one thread; `raydb calibrate --rt-scan-log-rows
// 21`: 2^21 rows x 3 uniform columns, three range predicates at 5/20/60% each; a second
// run under more load gave up to 2x more). GPU: fitted to the H200 sweep of session 5
// (docs/benchmarks/rt-scan-h200.md, 10^8 rows x 1-4 uint32 columns, device ms): the
// fused scan reads 4 bytes per row and predicate at ~3.6 TB/s; the sieve (bin codes
// on the GPU, a byte per row and constrained column) is read at bandwidth; a CUDA-core refine costs ~0.12 ns per residual row; an OptiX
// refine launch (software traversal on this card) ~0.15 ms plus ~1 ns per residual row;
// ~45 us per evaluation for the result vector and launches, ~30 us per CUDA refine launch. Replaced by this machine's
// numbers after `raydb calibrate`.
Calibration::RtScanConstants default_rt_scan_constants(ExecDevice dev) {
  Calibration::RtScanConstants c;
  if (dev == ExecDevice::kGpu) {
    c.scan_ns_per_row_predicate = 0.0011;
    c.sieve_ns_per_row_vector = 0.00015;  // bin codes: a byte per row and constrained column (2 "vectors")
    c.sieve_refine_ns_per_row = 0.12;
    c.sieve_refine_job_ns = 30000.0;
    c.rt_refine_ns_per_row = 1.0;
    c.rt_ns_per_job = 150000.0;
    c.fixed_ns = 45000.0;
    return c;
  }
  c.scan_ns_per_row_predicate = 1.0;
  c.sieve_ns_per_row_vector = 0.08;
  c.sieve_refine_ns_per_row = 20.0;
  c.rt_refine_ns_per_row = 10.0;
  c.rt_ns_per_job = 12000.0;
  // Embree's refine visits the rows inside the residual slabs its rays cross: on the
  // development VM (one thread, 2e6 rows x 4 uniform / Zipf 1.5 columns) 600-2500 ns per
  // slab row beyond the sieve, so at 90% per column rt is 15-30x the sieve's time; without
  // this term the model ranked it first there.
  c.rt_slab_ns_per_row = 1200.0;
  return c;
}

namespace {

// The sieve methods by the memory they touch (calibrations with sieve_pass_ns_per_row):
// their own fixed part, the sieve kernel's passes over the bin codes and its launches,
// then the CUDA refine's random sectors or the RT refine's slab rows. Fitted to the
// uniform rows of one session 12 H100 sweep and run on the other's 120 queries, the
// per-vector form was within 35% of gpu-sieve and 48% of rt, this one within 23% and
// 25% (scripts/rt_scan_pick_eval.py --fit uniform --fit-from).
double sieve_by_memory_ns(const Calibration::RtScanConstants& c, RtScanMethod m, const RtScanWork& w, double refine_jobs) {
  const double passes = w.sieve_passes > 0 ? w.sieve_passes : double(std::max<uint32_t>(1, w.predicates));
  double ns = c.sieve_fixed_ns + c.sieve_pass_ns_per_row * double(w.rows) * passes +
              c.sieve_job_ns * double(std::max<uint32_t>(1, w.jobs));
  if (m == RtScanMethod::kRt)
    return ns + c.rt_ns_per_job * refine_jobs + c.rt_refine_ns_per_row * double(w.residual_rows) +
           c.rt_slab_ns_per_row * w.slab_rows;
  return ns + c.sieve_refine_job_ns * refine_jobs + c.sieve_refine_ns_per_sector * w.refine_sectors;
}

}  // namespace

// Each method writes the bit vector (a word per 64 rows) and the caller turns it into
// row ids (a word read per 64 rows, a store per match), like the scan it replaces.
// An RT job launches only where it has residual slabs; the sieve alone answers the rest.
double rt_scan_cost_ms(ExecDevice dev, RtScanMethod m, const RtScanWork& w) {
  const auto cal = active_calibration();
  const Calibration::RtScanConstants* measured =
      cal ? (dev == ExecDevice::kGpu ? &cal->rt_scan_gpu : &cal->rt_scan_cpu) : nullptr;
  const Calibration::RtScanConstants c = measured && measured->measured ? *measured : default_rt_scan_constants(dev);
  const double rows = double(w.rows);
  const double to_rows_ns = dev == ExecDevice::kGpu ? rows * 0.0002 + w.matches * 0.004 : rows * 0.02 + w.matches * 1.0;
  const double sieve_ns = c.sieve_ns_per_row_vector * rows * std::max<uint32_t>(1, w.sieve_vectors);
  // Work built by hand (tests, older callers) may not count refine jobs: then every
  // job refines when anything does.
  const bool refines = w.slabs > 0 || w.residual_rows > 0;
  const double refine_jobs = w.refine_jobs > 0 ? double(w.refine_jobs) : refines ? double(w.jobs) : 0.0;
  double ns = c.fixed_ns;
  // No term left (the filter folded to true or false): every method fills the bit
  // vector with the same kernel (evaluate_tree's ones/zeros), so they cost the same.
  if (w.predicates == 0) return (ns + to_rows_ns) * 1e-6;
  if (c.sieve_pass_ns_per_row > 0 && m != RtScanMethod::kCpuScan && m != RtScanMethod::kGpuScan)
    return (sieve_by_memory_ns(c, m, w, refine_jobs) + to_rows_ns) * 1e-6;
  switch (m) {
    case RtScanMethod::kCpuScan: ns += c.scan_ns_per_row_predicate * rows * std::max<uint32_t>(1, w.predicates); break;
    case RtScanMethod::kGpuScan:  // reads later columns only where rows still match
      ns += c.scan_ns_per_row_predicate * rows *
            (w.scan_columns > 0 ? w.scan_columns : double(std::max<uint32_t>(1, w.predicates)));
      break;
    case RtScanMethod::kCpuSieve:
    case RtScanMethod::kGpuSieve:
      ns += sieve_ns + c.sieve_refine_ns_per_row * double(w.residual_rows) + c.sieve_refine_job_ns * refine_jobs;
      break;
    case RtScanMethod::kRt:  // rays cross whole residual slabs: their rows, not the residual rows alone
      ns += sieve_ns + c.rt_refine_ns_per_row * double(w.residual_rows) + c.rt_ns_per_job * refine_jobs +
            c.rt_slab_ns_per_row * w.slab_rows;
      break;
  }
  return (ns + to_rows_ns) * 1e-6;
}

}  // namespace raydb::plan
