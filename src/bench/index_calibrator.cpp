#include "bench/index_calibrator.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <numeric>
#include <parallel/algorithm>

#include "access/gpu/gpu_indexes.h"
#include "access/rt_index/baselines.h"
#include "access/rt_index/rt_index.h"
#include "bench/timing_stats.h"
#include "common/error.h"
#include "common/timer.h"
#include "rt/tracer.h"

namespace raydb::bench {

namespace {

using plan::ExecDevice;
using plan::IndexCurves;
using plan::IndexKind;
using plan::ProbeOrder;

uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One workload at one index size: the same lookups unsorted and sorted by key.
struct Batches {
  uint32_t hits = 1;
  std::vector<access::KeyRange> unsorted, presorted;
};

// Keys 2j for j in [0, n), once each, in a scrambled order (an odd multiplier is a
// bijection modulo 2^lk); lookups of `hits` consecutive keys starting at a uniform j,
// or (hits 0) points at the odd value 2j + 1, which no key has.
Batches make_batches(uint64_t n, uint64_t lookups, uint32_t hits, uint64_t seed) {
  Batches b;
  b.hits = hits;
  std::vector<uint32_t> js(lookups);
  const uint64_t last = n >= hits ? n - std::max<uint32_t>(hits, 1) : 0;
#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < lookups; ++i) js[i] = uint32_t(std::min(splitmix(seed * 0x1000193 + i) & (n - 1), last));
  auto ranges = [&](const std::vector<uint32_t>& v) {
    std::vector<access::KeyRange> r(v.size());
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < v.size(); ++i) {
      const uint64_t k = 2 * uint64_t(v[i]);
      r[i] = hits == 0 ? access::KeyRange{k + 1, k + 1} : access::KeyRange{k, k + 2 * (hits - 1)};
    }
    return r;
  };
  b.unsorted = ranges(js);
  __gnu_parallel::sort(js.begin(), js.end());
  b.presorted = ranges(js);
  return b;
}

// The indexed data at 2^lk keys: keys 2j scrambled, values i % 1000.
struct KeyData {
  std::vector<uint64_t> keys;
  std::vector<int64_t> values;
};

KeyData make_keys(int lk) {
  const uint64_t n = uint64_t{1} << lk;
  KeyData d;
  d.keys.resize(n);
  d.values.resize(n);
  const uint64_t mult = splitmix(uint64_t(lk)) | 1;
#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; ++i) {
    d.keys[i] = 2 * ((i * mult) & (n - 1));
    d.values[i] = int64_t(i % 1000);
  }
  return d;
}

std::unique_ptr<access::KeyIndex> build(ExecDevice dev, IndexKind kind, rt::Tracer* tracer,
                                        std::span<const uint64_t> keys, std::span<const int64_t> values,
                                        bool sorted_probes) {
  if (dev == ExecDevice::kGpu) {
    access::GpuIndexOptions g;  // the defaults the CUDA backend builds with (bucket size included)
    g.sorted_probes = sorted_probes;
    switch (kind) {
      case IndexKind::kRt: return access::make_gpu_rt(*tracer, keys, values, g);
      case IndexKind::kSorted: return access::make_gpu_sorted_array(keys, values, g);
      case IndexKind::kHash: return access::make_gpu_hash(keys, values, g);
      case IndexKind::kRtScan: break;  // not a key index: calibrated on its own
    }
  }
  switch (kind) {
    case IndexKind::kRt: {
      access::RtIndexOptions o;  // CREATE INDEX ... USING RT's defaults
      o.sorted_probes = sorted_probes;
      return std::make_unique<access::RtIndex>(*tracer, keys, values, o);
    }
    case IndexKind::kSorted: return std::make_unique<access::SortedArrayIndex>(keys, values, access::BaselineOptions{sorted_probes});
    case IndexKind::kHash: return std::make_unique<access::HashIndex>(keys, values, access::BaselineOptions{sorted_probes});
    case IndexKind::kRtScan: break;
  }
  fail(ErrorKind::kInternal, "calibrate: unknown index kind");
}

const char* method_name(ExecDevice dev, IndexKind k) {
  static const char* names[2][3] = {{"rt", "sa", "hash"}, {"rt-gpu", "sa-gpu", "hash-gpu"}};
  return names[size_t(dev)][size_t(k)];
}

// Time of one batch in ms: GPU device time (launch + sort of the probes, CUDA
// events), CPU wall time. Median of `reps`. Checks the counts (every key exists once,
// no range runs past the last key), so a broken index cannot calibrate the model.
double time_batch(const access::KeyIndex& ix, ExecDevice dev, std::span<const access::KeyRange> batch,
                  uint32_t hits, int reps, double* sort_ms) {
  std::vector<double> t, s;
  access::AggregateResult out;
  for (int r = 0; r < reps; ++r) {
    Timer w;
    ix.aggregate(batch, out);
    const double wall = w.elapsed_ms();
    const access::LookupTimes lt = ix.last_lookup_times();
    t.push_back(dev == ExecDevice::kGpu ? lt.launch_ms + lt.sort_ms : wall);
    s.push_back(lt.sort_ms);
  }
  const uint64_t total = std::accumulate(out.count.begin(), out.count.end(), uint64_t{0});
  if (total != uint64_t(batch.size()) * hits)
    fail(ErrorKind::kInternal, "calibrate: {} returned {} rows for {} lookups of {} rows", ix.name(), total,
         batch.size(), hits);
  if (sort_ms) *sort_ms = upper_median(s);
  return upper_median(t);
}

// The hash index answers points only.
bool measures_workload(IndexKind k, int w) {
  return k != IndexKind::kHash || w == IndexCurves::kPoint || w == IndexCurves::kPointMiss;
}

// What one device's run shares across sizes and kinds.
struct DeviceRun {
  ExecDevice dev = ExecDevice::kCpu;
  rt::Tracer* tracer = nullptr;
  uint64_t lookups = 0;
  int reps = 3;
  std::vector<double>* sort_ns = nullptr;  // GPU: probe sort cost per lookup, every measurement
};

// One index kind at one key count, in ns per lookup.
struct KindAtSize {
  std::array<std::array<double, 3>, IndexCurves::kWorkloads> ns{};  // [workload][order]
  std::array<double, IndexCurves::kWorkloads> fixed{};                // unsorted batch fixed cost
  double setup = 0, setup_sort = 0;                                   // measured at the first size
};

// Fixed cost of a batch (with the sort when the index sorts): the intercept of
// batches of 256 and 1024.
double batch_setup_ns(const access::KeyIndex& ix, const DeviceRun& run, const Batches& points, int reps) {
  const int r = std::max(reps, 5);
  const double t1 = time_batch(ix, run.dev, std::span(points.unsorted.data(), 256), 1, r, nullptr) * 1e6;
  const double t2 = time_batch(ix, run.dev, std::span(points.unsorted.data(), 1024), 1, r, nullptr) * 1e6;
  return std::max(0.0, t1 - 256 * std::max(0.0, t2 - t1) / 768);
}

// The workloads on an index built for one probe order: sp (the index sorts the
// batch) gives the index-sorts column, else unsorted (marginal and fixed) and presorted.
void measure_orders(const access::KeyIndex& ix, const DeviceRun& run, const std::vector<Batches>& work, IndexKind k,
                    bool sp, KindAtSize& m) {
  const double lookups = double(run.lookups);
  // Sorted orders: the marginal cost per lookup (the batch less its fixed cost).
  auto net = [&](double ms, double fixed_ns) { return std::max(0.0, ms * 1e6 - fixed_ns) / lookups; };
  for (int w = 0; w < IndexCurves::kWorkloads; ++w) {
    if (!measures_workload(k, w)) continue;
    const Batches& b = work[size_t(w)];
    if (sp) {
      double s = 0;
      m.ns[size_t(w)][size_t(ProbeOrder::kIndexSorts)] = net(time_batch(ix, run.dev, b.unsorted, b.hits, run.reps, &s), m.setup_sort);
      if (run.dev == ExecDevice::kGpu) run.sort_ns->push_back(s * 1e6 / lookups);
    } else {
      // Unsorted: two batch sizes give the marginal cost and the batch's fixed cost.
      const double t = time_batch(ix, run.dev, b.unsorted, b.hits, run.reps, nullptr) * 1e6;
      const std::span<const access::KeyRange> quarter(b.unsorted.data(), run.lookups / 4);
      const double tq = time_batch(ix, run.dev, quarter, b.hits, run.reps, nullptr) * 1e6;
      double marginal = (t - tq) / (lookups - double(run.lookups / 4));
      if (!(marginal > 0)) marginal = t / lookups;  // noise: no fixed part
      m.ns[size_t(w)][size_t(ProbeOrder::kUnsorted)] = marginal;
      m.fixed[size_t(w)] = std::max(0.0, t - marginal * lookups);
      m.ns[size_t(w)][size_t(ProbeOrder::kPresorted)] = net(time_batch(ix, run.dev, b.presorted, b.hits, run.reps, nullptr), m.setup);
    }
  }
}

// Builds kind k for both probe modes over the keys and measures every workload.
KindAtSize measure_kind(const DeviceRun& run, IndexKind k, const IndexCurves& c, const KeyData& data,
                        const std::vector<Batches>& work) {
  KindAtSize m;
  m.setup = c.setup_ns;
  m.setup_sort = c.sort_setup_ns;
  for (bool sp : {false, true}) {
    auto ix = build(run.dev, k, run.tracer, data.keys, data.values, sp);
    time_batch(*ix, run.dev, work[0].unsorted, 1, 1, nullptr);  // warm-up
    if (c.empty()) (sp ? m.setup_sort : m.setup) = batch_setup_ns(*ix, run, work[0], run.reps);
    measure_orders(*ix, run, work, k, sp, m);
  }
  return m;
}

void record(IndexCurves& c, IndexKind k, int lk, int ll, const KindAtSize& m) {
  c.log2_lookups = ll;
  c.setup_ns = m.setup;
  c.sort_setup_ns = m.setup_sort;
  c.log2_keys.push_back(lk);
  for (int w = 0; w < IndexCurves::kWorkloads; ++w)
    if (measures_workload(k, w)) {
      for (int o = 0; o < 3; ++o) c.ns[size_t(w)][size_t(o)].push_back(m.ns[size_t(w)][size_t(o)]);
      c.unsorted_fixed_ns[size_t(w)].push_back(m.fixed[size_t(w)]);
    }
}

void log_measurement(ExecDevice dev, IndexKind k, int lk, int ll, const KindAtSize& m, double ms) {
  std::fprintf(stderr, "calibrate: %-8s 2^%d keys, 2^%d lookups, ns/lookup unsorted (marginal) / index sorts / presorted:",
               method_name(dev, k), lk, ll);
  static const char* names[] = {"point", "range16", "range256", "miss"};
  for (int w = 0; w < IndexCurves::kWorkloads; ++w)
    if (measures_workload(k, w))
      std::fprintf(stderr, " %s %.3g/%.3g/%.3g", names[w], m.ns[size_t(w)][0], m.ns[size_t(w)][1], m.ns[size_t(w)][2]);
  std::fprintf(stderr, " (%.1f s)\n", ms / 1e3);
}

// The tracer of the RT kind: OptiX on the GPU (rt-gpu dropped from `kinds` when it
// cannot start), Embree on the CPU. False when the GPU indexes cannot run at all.
bool make_tracer(ExecDevice dev, std::vector<IndexKind>& kinds, std::unique_ptr<rt::Tracer>& tracer) {
  if (dev != ExecDevice::kGpu) {
    tracer = rt::make_embree_tracer();
    return true;
  }
  std::string why;
  if (!access::gpu_indexes_available(&why)) {
    std::fprintf(stderr, "calibrate: GPU indexes skipped (%s)\n", why.c_str());
    return false;
  }
  try {
    tracer = rt::make_optix_tracer();
  } catch (const Error& e) {
    std::fprintf(stderr, "calibrate: rt-gpu skipped (%s)\n", e.what());
    kinds.erase(kinds.begin());
  }
  return true;
}

}  // namespace

void IndexCalibrator::run(plan::Calibration& out) const {
  if (o_.cpu) run_device(ExecDevice::kCpu, out);
  if (o_.gpu) run_device(ExecDevice::kGpu, out);
}

void IndexCalibrator::run_device(ExecDevice dev, plan::Calibration& out) const {
  const bool gpu = dev == ExecDevice::kGpu;
  std::vector<IndexKind> kinds = {IndexKind::kRt, IndexKind::kSorted, IndexKind::kHash};
  std::unique_ptr<rt::Tracer> tracer;
  if (!make_tracer(dev, kinds, tracer)) return;
  // CPU lookups on one thread: the cost model's CPU constants are single-thread costs.
  const int threads = omp_get_max_threads();
  if (!gpu) omp_set_num_threads(1);
  const std::vector<int>& sizes = gpu ? o_.gpu_log2_keys : o_.cpu_log2_keys;
  const int ll = gpu ? o_.gpu_log2_lookups : o_.cpu_log2_lookups;
  std::vector<double> sort_ns;
  const DeviceRun run{dev, tracer.get(), uint64_t{1} << ll, o_.reps, &sort_ns};
  std::vector<IndexCurves> curves(3);
  std::vector<bool> failed(3, false);
  Timer total;
  for (int lk : sizes) {
    const KeyData data = make_keys(lk);
    std::vector<Batches> work;
    for (int w = 0; w < IndexCurves::kWorkloads; ++w)
      work.push_back(make_batches(uint64_t{1} << lk, run.lookups, uint32_t(IndexCurves::kHits[size_t(w)]), uint64_t(lk * 5 + w)));
    for (IndexKind k : kinds) {
      if (failed[size_t(k)]) continue;
      Timer tm;
      KindAtSize m;
      try {
        m = measure_kind(run, k, curves[size_t(k)], data, work);
      } catch (const Error& e) {
        // Too little memory for this size, say: keep the sizes measured so far.
        std::fprintf(stderr, "calibrate: %s at 2^%d keys skipped (%s)\n", method_name(dev, k), lk, e.what());
        failed[size_t(k)] = true;
        continue;
      }
      record(curves[size_t(k)], k, lk, ll, m);
      log_measurement(dev, k, lk, ll, m, tm.elapsed_ms());
    }
  }
  for (IndexKind k : kinds)
    if (!curves[size_t(k)].empty()) out.curves(dev, k) = curves[size_t(k)];
  if (gpu) {
    out.gpu_sort_ns_per_lookup = upper_median(sort_ns);
  } else {
    // What sorting a batch by key costs on one thread (the CPU indexes' index-sorts
    // times include it): the point batch of the largest size.
    std::vector<access::KeyRange> v = make_batches(uint64_t{1} << sizes.back(), run.lookups, 1, 7).unsorted;
    Timer t;
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.lo < b.lo; });
    out.cpu_sort_ns_per_lookup = t.elapsed_ms() * 1e6 / double(run.lookups);
    out.cpu_index_threads = 1;
    omp_set_num_threads(threads);
  }
  std::fprintf(stderr, "calibrate: %s indexes measured in %.1f s\n", plan::exec_device_name(dev), total.elapsed_ms() / 1e3);
}

}  // namespace raydb::bench
