#include "bench/scan_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "access/rt_scan/gpu_scan_index.h"
#include "access/rt_scan/scan_index.h"
#include "bench/run_context.h"
#include "bench/scan_data.h"
#include "bench/timing_stats.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "exec/cuda/cuda_device.h"
#include "exec/index/rt_scan_chooser.h"
#include "exec/index/scan_method_timings.h"
#include "plan/physical/cost_model.h"

namespace raydb::bench {

namespace {

namespace rs = access::rt_scan;
using json = nlohmann::ordered_json;

struct Method {
  std::string name;
  rs::ScanMethod method;
  bool gpu;
};

Method parse_method(const std::string& m) {
  if (m == "rt-cpu") return {m, rs::ScanMethod::kRt, false};
  if (m == "cpu-scan") return {m, rs::ScanMethod::kCpuScan, false};
  if (m == "cpu-sieve") return {m, rs::ScanMethod::kCpuSieve, false};
  if (m == "rt-gpu") return {m, rs::ScanMethod::kRt, true};
  if (m == "gpu-scan") return {m, rs::ScanMethod::kGpuScan, true};
  if (m == "gpu-sieve") return {m, rs::ScanMethod::kGpuSieve, true};
  fail(ErrorKind::kInvalidInput, "unknown method '{}' (expected rt-cpu, cpu-scan, cpu-sieve, rt-gpu, gpu-scan, gpu-sieve)",
       m);
}

// One query: `c < thresholds[c]` on columns 0..predicates-1.
struct Query {
  uint32_t predicates = 0;
  std::string asked;  // the selectivity per column asked for, as written
  std::vector<int64_t> thresholds;
  int64_t expected = -1;  // rows the data file's meta says match (-1: none given)
  rs::ScanExpr expr() const {
    std::vector<rs::ScanExpr> p;
    for (uint32_t c = 0; c < predicates; ++c) p.push_back(rs::ScanExpr::pred(c, rs::CompareOp::kLess, {thresholds[c]}));
    return rs::ScanExpr::all_of(std::move(p));
  }
};

std::string fmt_sel(double s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

// Queries of a generated dataset: per-column thresholds for each selectivity.
std::vector<Query> generated_queries(const ScanData& d, const ScanBenchOptions& o) {
  std::vector<std::vector<int64_t>> per_column;  // [column][selectivity]
  for (const auto& col : d.columns) per_column.push_back(selectivity_thresholds(col, o.selectivities));
  std::vector<Query> out;
  for (uint32_t p : o.predicates) {
    if (p > d.columns.size()) continue;
    for (size_t s = 0; s < o.selectivities.size(); ++s) {
      Query q{p, fmt_sel(o.selectivities[s]), {}, -1};
      for (uint32_t c = 0; c < p; ++c) q.thresholds.push_back(per_column[c][s]);
      out.push_back(q);
    }
  }
  return out;
}

// Queries of an artifact data file: its meta's thresholds, the same on every column.
std::vector<Query> meta_queries(const std::string& meta_path, const ScanData& d, const ScanBenchOptions& o) {
  std::ifstream in(meta_path);
  if (!in) fail(ErrorKind::kIO, "{}: cannot open", meta_path);
  json meta;
  try {
    meta = json::parse(in);
  } catch (const std::exception&) {
    fail(ErrorKind::kInvalidInput, "{}: not JSON", meta_path);
  }
  std::vector<Query> out;
  for (uint32_t p : o.predicates) {
    if (p > d.columns.size()) continue;
    for (const auto& jq : meta.value("queries", json::array())) {
      Query q{p, "", {}, p == d.columns.size() ? jq.value("expected", int64_t{-1}) : -1};
      for (const auto& a : jq.value("asked", json::array())) q.asked += (q.asked.empty() ? "" : "/") + a.get<std::string>();
      q.thresholds.assign(p, jq.at("threshold").get<int64_t>());
      out.push_back(q);
    }
  }
  return out;
}

// The brute-force answer: three-valued `<` on every row (no NULLs in these data).
rs::BitVector brute_force(const ScanData& d, const Query& q) {
  rs::BitVector b;
  b.rows = d.rows();
  b.words.assign((b.rows + 63) / 64, 0);
  const int64_t words = static_cast<int64_t>(b.words.size());
#pragma omp parallel for schedule(static)
  for (int64_t w = 0; w < words; ++w) {
    uint64_t bits = 0;
    const uint64_t end = std::min<uint64_t>(b.rows, uint64_t(w + 1) * 64);
    for (uint64_t i = uint64_t(w) * 64; i < end; ++i) {
      bool hit = true;
      for (uint32_t c = 0; c < q.predicates; ++c) hit = hit && d.columns[c][i] < q.thresholds[c];
      bits |= uint64_t(hit) << (i & 63);
    }
    b.words[size_t(w)] = bits;
  }
  return b;
}

// Device memory in use by the whole GPU (as nvidia-smi sees it), sampled every 2 ms on
// a thread between start() and stop(): the peak during an index build, its BVH
// build's temporary buffers included.
class GpuMemorySampler {
 public:
  GpuMemorySampler() : base_(used()) {}
  void start() {
    run_ = true;
    thread_ = std::thread([this] {
      while (run_) {
        peak_ = std::max(peak_.load(), used());
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  void stop() {
    run_ = false;
    if (thread_.joinable()) thread_.join();
    peak_ = std::max(peak_.load(), used());
  }
  uint64_t peak_over_base() const { return peak_ > base_ ? peak_ - base_ : 0; }
  uint64_t now_over_base() const {
    const uint64_t u = used();
    return u > base_ ? u - base_ : 0;
  }

 private:
  static uint64_t used() {
    const auto d = exec::cuda::devices();
    return d.empty() ? 0 : d[0].total_bytes - d[0].free_bytes;
  }
  uint64_t base_;
  std::atomic<uint64_t> peak_{0};
  std::atomic<bool> run_{false};
  std::thread thread_;
};

// What one method needs built (so its build time and memory are its own).
rs::RtScanOptions options_for(const Method& m, const ScanBenchOptions& o) {
  rs::RtScanOptions x;
  x.bins = o.bins;
  x.cell_shift = o.cell_shift;
  x.segment_cells = o.segment_cells;
  x.build_rt = m.method == rs::ScanMethod::kRt;
  const bool sieve_method = m.method == rs::ScanMethod::kCpuSieve || m.method == rs::ScanMethod::kGpuSieve;
  x.build_sieve = x.build_rt || sieve_method;
  x.sieve_refine = sieve_method;
  x.build_scan = m.method == rs::ScanMethod::kGpuScan;
  if (!o.groups.empty()) {
    std::stringstream in(o.groups);
    for (std::string g; std::getline(in, g, ';');) {
      std::vector<uint32_t> cols;
      std::stringstream gs(g);
      for (std::string c; std::getline(gs, c, ',');) cols.push_back(static_cast<uint32_t>(std::stoul(c)));
      x.groups.push_back(cols);
    }
  }
  return x;
}

// One method's index over a dataset, with what its build cost.
struct MethodIndex {
  std::unique_ptr<rt::Tracer> tracer;
  std::unique_ptr<rs::ScanIndex> index;
  rs::GpuScanIndex* gpu = nullptr;
  std::shared_ptr<uint64_t> device_words;
  double build_ms = 0;
  uint64_t peak_device_bytes = 0, resident_device_bytes = 0;
};

MethodIndex build_for(const Method& m, std::span<const rs::ScanColumn> cols, const ScanBenchOptions& o) {
  MethodIndex mi;
  const rs::RtScanOptions x = options_for(m, o);
  if (!m.gpu) {
    if (x.build_rt) mi.tracer = rt::make_embree_tracer();
    Timer t;
    mi.index = rs::make_host_scan_index(cols, x, mi.tracer.get());
    mi.build_ms = t.elapsed_ms();
    return mi;
  }
  std::string why;
  if (!rs::gpu_scan_available(&why)) fail(ErrorKind::kInvalidInput, "method {}: {}", m.name, why);
  GpuMemorySampler mem;
  mem.start();
  Timer t;
  if (x.build_rt) mi.tracer = rt::make_optix_tracer();
  auto g = rs::make_gpu_scan_index(cols, x, mi.tracer.get());
  mi.build_ms = t.elapsed_ms();
  mem.stop();
  mi.peak_device_bytes = mem.peak_over_base();
  mi.resident_device_bytes = mem.now_over_base();
  mi.gpu = g.get();
  mi.index = std::move(g);
  mi.device_words = rs::make_device_words((cols[0].values.size() + 63) / 64);
  return mi;
}

json build_line(const std::string& dataset, uint64_t rows, const Method& m, const MethodIndex& mi) {
  const rs::ScanBuildStats& b = mi.index->build_stats();
  json j;
  j["suite"] = "scan-build";
  j["dataset"] = dataset;
  j["rows"] = rows;
  j["method"] = m.name;
  j["build_ms"] = mi.build_ms;
  j["host_bytes"] = b.host_bytes();
  j["device_bytes"] = b.device_bytes();
  j["device_resident_bytes"] = mi.resident_device_bytes;  // whole GPU, after the build
  j["device_peak_bytes"] = mi.peak_device_bytes;          // whole GPU, during the build
  json parts = json::array();
  for (const rs::StructureStats& s : b.structures)
    parts.push_back({{"name", s.name}, {"build_ms", s.build_ms}, {"host_bytes", s.host_bytes},
                     {"device_bytes", s.device_bytes}});
  j["structures"] = parts;
  std::fprintf(stderr, "[scan] %s %s: built in %.0f ms, host %.1f MiB, device %.1f MiB (peak %.1f MiB)\n",
               dataset.c_str(), m.name.c_str(), mi.build_ms, b.host_bytes() / 1048576.0,
               b.device_bytes() / 1048576.0, mi.peak_device_bytes / 1048576.0);
  return j;
}

// The planner's cost of a query with estimate `e` by `m` on `mi`'s index (rt_scan_cost_ms over
// the index's own estimate, on the index's device): what `auto` would compare.
double model_ms(const MethodIndex& mi, const Method& m, const rs::ScanEstimate& e) {
  const plan::RtScanWork w = exec::rt_scan_work(e, mi.index->rows());
  const plan::RtScanMethod pm = exec::plan_method(m.method);
  return plan::rt_scan_cost_ms(m.gpu ? plan::ExecDevice::kGpu : plan::ExecDevice::kCpu, pm, w);
}

// The planner's inputs, so a sweep can be re-costed offline under another calibration
// (scripts/rt_scan_pick_eval.py).
json estimate_json(const rs::ScanEstimate& e) {
  return {{"predicates", e.predicates},         {"jobs", e.jobs},
          {"refine_jobs", e.refine_jobs},       {"sieve_vectors", e.sieve_vectors},
          {"residual_rows", e.residual_rows},   {"slabs", e.slabs},
          {"match_fraction", e.match_fraction}, {"scan_columns", e.scan_columns},
          {"sieve_passes", e.sieve_passes},     {"refine_sectors", e.refine_sectors},
          {"slab_rows", e.slab_rows}};
}

// Per query, each method's measured and modelled time: the model's pick against the
// fastest measured (the planner's pick must be the fastest method).
struct PickRow {
  std::string method;
  double measured_ms = 0, model_ms = 0;
  // The kernels it runs: the RT method with nothing left to refine after sieving runs
  // exactly the sieve method's kernels (group_job of both indexes), so both get the
  // sieve's name here, and a filter that folded to a constant is one fill for every
  // method; a pick of one where its twin measured faster is no miss.
  std::string work;
  std::vector<double> times;  // each timed repetition's measured time, in order
};

std::string work_of(const Method& m, const rs::ScanEstimate& e) {
  if (e.predicates == 0) return "constant";  // folded to true/false: every method fills the same words
  const bool sieve_only = e.slabs == 0 && e.residual_rows == 0;
  if (sieve_only && m.method == rs::ScanMethod::kRt) return m.gpu ? "gpu-sieve" : "cpu-sieve";
  return m.name;
}

struct QueryTiming {
  TimingStats device, host;
  std::vector<double> device_times;  // per timed repetition (host times for CPU methods)
  rs::ScanQueryStats stats;
  rs::BitVector result;
};

QueryTiming time_query(const MethodIndex& mi, const Method& m, const rs::ScanExpr& e, const ScanBenchOptions& o) {
  QueryTiming qt;
  std::vector<double> dev, host;
  for (int r = 0; r < o.warmup + o.reps; ++r) {
    if (mi.gpu) {
      Timer t;
      mi.gpu->evaluate_device(e, m.method, mi.device_words.get(), nullptr);
      if (r >= o.warmup) dev.push_back(t.elapsed_ms());
    }
    Timer t;
    mi.index->evaluate(e, m.method, qt.result, nullptr);
    if (r >= o.warmup) host.push_back(t.elapsed_ms());
  }
  qt.host = summarize(host);
  qt.device = mi.gpu ? summarize(dev) : qt.host;
  qt.device_times = mi.gpu ? dev : host;
  rs::BitVector counted;
  mi.index->evaluate(e, m.method, counted, &qt.stats);  // rays and refined rows (counting costs atomics)
  return qt;
}

// The planner's measured refinement (exec::ScanMethodTimings) replayed on one query's
// repetitions: at repetition k it takes the method the store chooses and that method's
// k-th measured time, as the engine would run it k times in a row. The first
// repetitions explore (every method within the margin once, near-ties until each has
// kSettleRuns times); the pick reported is the one the store takes after the last
// repetition (`settled` false when it would still explore), and its time the median
// over the repetitions after the first, exploration included.
struct AdaptivePick {
  std::string method;
  exec::ChoiceSource source = exec::ChoiceSource::kModel;
  double ms = 0;
  std::string work;
  bool settled = true;
};

AdaptivePick replay_adaptive(const std::vector<PickRow>& rows, double margin) {
  std::vector<const PickRow*> ranked;
  for (const PickRow& r : rows) ranked.push_back(&r);
  // As the planner ranks them: the estimate, on a tie not the RT method; one method per
  // kernels (the RT method with nothing to refine is the sieve's work: no candidate).
  std::stable_sort(ranked.begin(), ranked.end(), [](const PickRow* a, const PickRow* b) {
    return std::pair(a->model_ms, a->method.rfind("rt", 0) == 0) < std::pair(b->model_ms, b->method.rfind("rt", 0) == 0);
  });
  std::vector<const PickRow*> distinct;
  for (const PickRow* r : ranked)
    if (std::none_of(distinct.begin(), distinct.end(), [&](const PickRow* d) { return d->work == r->work; }))
      distinct.push_back(r);
  std::vector<exec::CostedMethod> costed;
  for (const PickRow* r : distinct) costed.push_back({r->method, r->model_ms});
  auto row_of = [&](const std::string& m) {
    return *std::find_if(distinct.begin(), distinct.end(), [&](const PickRow* r) { return r->method == m; });
  };
  exec::ScanMethodTimings store;
  std::vector<double> after_first;
  const size_t reps = distinct[0]->times.size();
  for (size_t k = 0; k < reps; ++k) {
    const exec::MethodChoice c = store.choose("query", costed, margin);
    const PickRow& ran = *row_of(c.method);
    const double ms = k < ran.times.size() ? ran.times[k] : ran.measured_ms;
    if (c.adaptive) store.record("query", c.method, ms);
    if (k > 0 || reps == 1) after_first.push_back(ms);
  }
  const exec::MethodChoice last = store.choose("query", costed, margin);
  const PickRow& picked = *row_of(last.method);
  return {last.method, last.source, summarize(after_first).median, picked.work,
          last.source != exec::ChoiceSource::kExplore};
}

// One "scan-pick" line per query (several methods run): the model's pick, the fastest
// measured, and the pick's time over the fastest's.
void write_picks(const ScanData& d, const std::vector<Query>& queries, const std::vector<std::vector<PickRow>>& picks,
                 double margin, std::ofstream& out, const MachineInfo& machine, const std::string& gpu_name) {
  // `same`: the pick runs the fastest method's kernels (PickRow::work). Other methods
  // within 5% (+5 us) of the fastest are counted apart, as near-ties.
  int agree = 0, same = 0, near = 0, total = 0, adaptive_agree = 0, adaptive_same = 0, measured = 0, unsettled = 0;
  double worst = 1;
  for (size_t i = 0; i < queries.size(); ++i) {
    const auto& r = picks[i];
    if (r.size() < 2) continue;
    auto by = [&](auto key) {
      return *std::min_element(r.begin(), r.end(), [&](const PickRow& a, const PickRow& b) { return key(a) < key(b); });
    };
    // As the planner breaks ties: not the RT method (rt_scan_chooser).
    const PickRow pick = by([](const PickRow& x) { return std::pair(x.model_ms, x.method.rfind("rt", 0) == 0); });
    const PickRow fastest = by([](const PickRow& x) { return x.measured_ms; });
    const double ratio = pick.measured_ms / std::max(1e-9, fastest.measured_ms);
    total++;
    agree += pick.method == fastest.method;
    const bool same_work = pick.work == fastest.work;
    same += same_work;
    const bool within = same_work || pick.measured_ms <= fastest.measured_ms * 1.05 + 0.005;
    near += within;
    worst = std::max(worst, ratio);
    const AdaptivePick ad = replay_adaptive(r, margin);
    adaptive_agree += ad.method == fastest.method;
    adaptive_same += ad.work == fastest.work;
    measured += ad.source == exec::ChoiceSource::kMeasured;
    unsettled += !ad.settled;
    json j;
    j["suite"] = "scan-pick";
    j["dataset"] = d.name;
    j["rows"] = d.rows();
    j["predicates"] = queries[i].predicates;
    j["selectivity"] = queries[i].asked;
    // "pick": the planner's choice with the measured refinement (margin 0: the model's);
    // "model_pick": the cost model's alone.
    j["pick"] = ad.method;
    j["pick_source"] = exec::choice_source_name(ad.source);
    j["pick_ms"] = ad.ms;  // median over the repetitions after the first
    j["pick_same_work"] = ad.work == fastest.work;
    j["pick_settled"] = ad.settled;  // false: the repetitions ran out while it still explored
    j["adaptive_margin"] = margin;
    j["fastest"] = fastest.method;
    j["fastest_ms"] = fastest.measured_ms;
    j["model_pick"] = pick.method;
    j["model_pick_ms"] = pick.measured_ms;
    j["model_pick_over_fastest"] = ratio;
    j["model_pick_same_work"] = same_work;
    j["model_pick_within_noise"] = within;
    add_run_context(j, machine, gpu_name);
    if (out.is_open()) out << j.dump() << "\n";
  }
  if (total > 0)
    std::fprintf(stderr, "[scan] %s: the model picked the fastest method in %d of %d queries, its kernels in %d, "
                 "within 5%% of it in %d (worst pick %.2fx the fastest)\n", d.name.c_str(), agree, total, same, near,
                 worst);
  if (total > 0 && margin > 0)
    std::fprintf(stderr, "[scan] %s: with the measured refinement (margin %.0f%%) the pick was the fastest method in %d "
                 "of %d queries, its kernels in %d (%d settled by measurement, %d still exploring after the "
                 "repetitions)\n", d.name.c_str(), 100 * margin, adaptive_agree, total, adaptive_same, measured, unsettled);
}

void run_dataset(const ScanData& d, std::vector<Query> queries, const ScanBenchOptions& o,
                 const std::vector<Method>& methods, std::ofstream& out, const MachineInfo& machine,
                 const std::string& gpu_name) {
  std::vector<rs::ScanColumn> cols;
  for (const auto& c : d.columns) cols.push_back({c, {}});
  std::vector<rs::BitVector> truth;
  for (const Query& q : queries) truth.push_back(brute_force(d, q));
  std::vector<std::vector<PickRow>> picks(queries.size());
  for (const Method& m : methods) {
    // The previous method's index went back to the pool: return it to the device, so
    // this build's whole-GPU memory readings are its own.
    exec::cuda::release_pooled_memory();
    MethodIndex mi = build_for(m, cols, o);
    json bl = build_line(d.name, d.rows(), m, mi);
    add_run_context(bl, machine, m.gpu ? gpu_name : "");
    if (out.is_open()) out << bl.dump() << "\n";
    for (size_t i = 0; i < queries.size(); ++i) {
      const Query& q = queries[i];
      QueryTiming qt = time_query(mi, m, q.expr(), o);
      const uint64_t rows = truth[i].count();
      const bool ok = !o.check || (qt.result.words == truth[i].words && (q.expected < 0 || uint64_t(q.expected) == rows));
      std::printf("%-10s %10llu %2u %-10s %-9s %11llu %9.3f %9.3f %12llu %12llu %s\n", d.name.c_str(),
                  (unsigned long long)d.rows(), q.predicates, q.asked.c_str(), m.name.c_str(),
                  (unsigned long long)rows, qt.device.median, qt.host.median, (unsigned long long)qt.stats.rays,
                  (unsigned long long)qt.stats.rows_refined, ok ? "yes" : "NO");
      std::fflush(stdout);
      json j;
      j["suite"] = "scan";
      j["dataset"] = d.name;
      j["rows"] = d.rows();
      j["predicates"] = q.predicates;
      j["selectivity"] = q.asked;
      j["thresholds"] = q.thresholds;
      j["result_rows"] = rows;
      j["method"] = m.name;
      j["device_ms"] = qt.device.median;  // result bit vector where the method computes it
      j["device_ms_min"] = qt.device.min;
      j["device_times"] = qt.device_times;  // each timed repetition, in order (the run-to-run noise)
      j["host_ms"] = qt.host.median;  // result bit vector in host memory
      j["host_ms_min"] = qt.host.min;
      j["kernel_ms"] = qt.stats.device_ms;  // GPU time of the kernels and launches (one counted run)
      j["rays"] = qt.stats.rays;
      j["rows_refined"] = qt.stats.rows_refined;
      j["sieve_rows"] = qt.stats.sieve_rows;
      j["build_ms"] = mi.build_ms;
      const rs::ScanEstimate est = mi.index->estimate(q.expr());
      j["model_ms"] = model_ms(mi, m, est);
      j["estimate"] = estimate_json(est);
      j["correct"] = ok;
      picks[i].push_back({m.name, qt.device.median, j["model_ms"].get<double>(), work_of(m, est), qt.device_times});
      add_run_context(j, machine, m.gpu ? gpu_name : "");
      if (out.is_open()) out << j.dump() << "\n";
      if (!ok) fail(ErrorKind::kExecution, "bench scan: {} on {} (sel {}, {} predicates) differs from brute force",
                    m.name, d.name, q.asked, q.predicates);
    }
  }
  write_picks(d, queries, picks, o.adaptive_margin, out, machine, gpu_name);
}

}  // namespace

void run_scan_bench(const ScanBenchOptions& o) {
  std::vector<Method> methods;
  for (const std::string& m : o.methods) methods.push_back(parse_method(m));
  if (o.metas.size() > o.files.size()) fail(ErrorKind::kInvalidInput, "--meta given for more files than --file");
  uint32_t max_p = 0;
  for (uint32_t p : o.predicates) {
    if (p < 1 || p > 6) fail(ErrorKind::kInvalidInput, "--predicates takes 1..6, got {}", p);
    max_p = std::max(max_p, p);
  }
  const MachineInfo machine = machine_info();
  const auto devs = exec::cuda::devices();
  const std::string gpu_name = devs.empty() ? "" : devs[0].name;
  std::ofstream out;
  if (!o.json.empty()) {
    out.open(o.json, std::ios::app);
    if (!out) fail(ErrorKind::kIO, "{}: cannot open for writing", o.json);
  }
  std::printf("%-10s %10s %2s %-10s %-9s %11s %9s %9s %12s %12s %s\n", "dataset", "rows", "p", "sel/col", "method",
              "result", "dev_ms", "host_ms", "rays", "refined", "ok");
  for (size_t f = 0; f < o.files.size(); ++f) {
    std::fprintf(stderr, "[scan] reading %s\n", o.files[f].c_str());
    const ScanData d = load_scan_file(o.files[f], 3);
    std::vector<Query> qs = f < o.metas.size() ? meta_queries(o.metas[f], d, o) : generated_queries(d, o);
    run_dataset(d, qs, o, methods, out, machine, gpu_name);
  }
  if (!o.files.empty()) return;
  for (const std::string& ds : o.datasets) {
    std::fprintf(stderr, "[scan] generating %s: %llu rows x %u columns\n", ds.c_str(), (unsigned long long)o.rows,
                 std::max(3u, max_p));
    const ScanData d = generate_scan_data(ds, o.rows, std::max(3u, max_p), o.seed);
    run_dataset(d, generated_queries(d, o), o, methods, out, machine, gpu_name);
  }
}

}  // namespace raydb::bench
