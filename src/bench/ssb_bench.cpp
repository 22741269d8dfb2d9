#include "bench/ssb_bench.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "bench/one_shot_run.h"
#include "bench/run_context.h"
#include "bench/ssb_runner.h"
#include "bench/timing_stats.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "raydb/system.h"
#include "storage/persist/database_directory.h"

namespace raydb::bench {

namespace {

// What the report of one run needs beside the timings.
struct SsbRun {
  const SsbBenchOptions* options = nullptr;
  uint64_t lineorder_rows = 0;
  int threads = 0;
  MachineInfo machine;
  std::ofstream json;
};

// GPU runs: end-to-end time from host memory (column cache dropped before each of 3
// runs, the middle one kept), the fact bytes each query reads, and the device's read
// bandwidth measured in this run (for the bandwidth floor).
struct GpuEndToEnd {
  double read_gbs = 0;
  std::vector<double> e2e_ms;
  std::vector<uint64_t> fact_bytes;
};

GpuEndToEnd measure_end_to_end(Database& db, const QueryOptions& opts, std::vector<QueryTiming>& timings) {
  GpuEndToEnd g;
  g.e2e_ms.assign(timings.size(), 0);
  g.fact_bytes.assign(timings.size(), 0);
  g.read_gbs = measure_gpu_read_gbs();
  for (size_t i = 0; i < timings.size(); i++) {
    std::vector<double> e;
    for (int r = 0; r < 3; r++) {
      drop_gpu_resident_columns();
      Timer timer;
      QueryResult res = db.query(ssb_query_sql(timings[i].name), opts);
      e.push_back(timer.elapsed_ms());
      g.fact_bytes[i] = res.device_bytes;
      if (!same_result(res, timings[i].first)) timings[i].verified = false;
    }
    std::sort(e.begin(), e.end());
    g.e2e_ms[i] = e[1];
  }
  return g;
}

nlohmann::ordered_json gpu_record(const SsbRun& run, const QueryTiming& t, const TimingStats& dev, double e2e_ms,
                                  uint64_t fact_bytes, double read_gbs, double floor_ms, const std::string& device) {
  nlohmann::ordered_json j;
  j["suite"] = "ssb";
  j["query"] = t.name;
  j["backend"] = t.first.backend;
  j["gpu_median_ms"] = dev.median;
  j["gpu_min_ms"] = dev.min;
  j["gpu_max_ms"] = dev.max;
  j["gpu_times_ms"] = t.device_ms;
  j["end_to_end_ms"] = e2e_ms;
  j["host_median_ms"] = t.median_ms;
  j["fact_bytes"] = fact_bytes;
  j["device_read_gbs"] = read_gbs;
  j["floor_ms"] = floor_ms;
  j["floor_fraction"] = floor_ms / dev.median;
  j["rows"] = t.rows;
  j["reps"] = run.options->reps;
  j["verified"] = t.verified;
  j["lineorder_rows"] = run.lineorder_rows;
  j["db"] = run.options->dir;
  add_run_context(j, run.machine, device);
  return j;
}

// The GPU table: device time, end-to-end time, fact bytes and the bandwidth floor.
bool report_gpu(SsbRun& run, const std::vector<QueryTiming>& timings, const GpuEndToEnd& g) {
  std::printf("device read bandwidth (measured now): %.1f GB/s\n", g.read_gbs);
  std::printf("%-6s %9s %9s %9s %9s %9s %9s %8s %8s  %s\n", "query", "gpu_med", "gpu_min", "gpu_max", "e2e_ms",
              "fact_MB", "floor_ms", "floor/t", "rows", "verified");
  std::string device;  // named in the JSON lines only
  if (run.json.is_open()) {
    const SystemInfo sys = system_info();
    if (!sys.gpus.empty()) device = sys.gpus[0].name;
  }
  double gsum = 0, fsum = 0;
  bool all_ok = true;
  for (size_t i = 0; i < timings.size(); i++) {
    const QueryTiming& t = timings[i];
    const TimingStats dev = summarize(t.device_ms);
    const double floor_ms = double(g.fact_bytes[i]) / (g.read_gbs * 1e9) * 1e3;
    gsum += dev.median;
    fsum += floor_ms;
    all_ok &= t.verified;
    std::printf("%-6s %9.3f %9.3f %9.3f %9.2f %9.1f %9.3f %8.2f %8zu  %s\n", t.name.c_str(), dev.median, dev.min,
                dev.max, g.e2e_ms[i], double(g.fact_bytes[i]) / 1e6, floor_ms, floor_ms / dev.median, t.rows,
                t.verified ? "yes" : "NO");
    if (run.json.is_open())
      run.json << gpu_record(run, t, dev, g.e2e_ms[i], g.fact_bytes[i], g.read_gbs, floor_ms, device).dump() << "\n";
  }
  std::printf("%-6s %9.3f %9s %9s %9s %9s %9.3f\n", "sum", gsum, "", "", "", "", fsum);
  return all_ok;
}

nlohmann::ordered_json cpu_record(const SsbRun& run, const QueryTiming& t) {
  nlohmann::ordered_json j;
  j["suite"] = "ssb";
  j["query"] = t.name;
  j["backend"] = t.first.backend;
  j["median_ms"] = t.median_ms;
  j["min_ms"] = t.min_ms;
  j["max_ms"] = t.max_ms;
  j["rows"] = t.rows;
  j["reps"] = run.options->reps;
  j["verified"] = t.verified;
  j["times_ms"] = t.times_ms;
  j["lineorder_rows"] = run.lineorder_rows;
  j["db"] = run.options->dir;
  j["threads"] = run.threads;
  add_run_context(j, run.machine);
  return j;
}

// The host table: wall time per query.
bool report_host(SsbRun& run, const std::vector<QueryTiming>& timings) {
  std::printf("%-6s %10s %10s %10s %8s  %s\n", "query", "median_ms", "min_ms", "max_ms", "rows", "verified");
  double sum = 0;
  bool all_ok = true;
  for (auto& t : timings) {
    std::printf("%-6s %10.2f %10.2f %10.2f %8zu  %s\n", t.name.c_str(), t.median_ms, t.min_ms, t.max_ms, t.rows,
                t.verified ? "yes" : "NO");
    sum += t.median_ms;
    all_ok &= t.verified;
    if (run.json.is_open()) run.json << cpu_record(run, t).dump() << "\n";
  }
  std::printf("%-6s %10.2f\n", "sum", sum);
  return all_ok;
}

const char* backend_arg(Backend b) {
  switch (b) {
    case Backend::kAuto: return "auto";
    case Backend::kCpu: return "cpu";
    case Backend::kCuda: return "cuda";
    case Backend::kRt: return "rt";
  }
  return "auto";
}

// The one-shot CSV is the in-process result: one line per row, cells as to_string
// (SSB results hold no commas or quotes, so CSV quotes nothing).
bool same_csv(const std::string& csv, const QueryResult& r) {
  std::string want;
  for (size_t c = 0; c < r.column_count(); c++) want += (c ? "," : "") + r.column_name(c);
  want += "\n";
  for (size_t row = 0; row < r.row_count(); row++) {
    for (size_t c = 0; c < r.column_count(); c++) want += (c ? "," : "") + r.get(row, c).to_string();
    want += "\n";
  }
  return csv == want;
}

// Each query `runs` times in a fresh process; the run with the median end-to-end time
// is reported, beside the resident (device, or host when no device) and warm
// in-process times of the same query.
bool report_one_shot(SsbRun& run, const std::vector<QueryTiming>& timings) {
  const SsbBenchOptions& o = *run.options;
  std::printf("\none-shot: a fresh `raydb query` process per run, %d runs, median; warm: the same query in one "
              "process with its data resident (as raydb serve keeps it, without the wire)\n",
              o.one_shot);
  std::printf("%-6s %10s %10s %11s %-7s %9s %9s %9s %9s  %s\n", "query", "resident", "warm_ms", "one_shot_ms",
              "backend", "start_ms", "read_MB", "needed_MB", "device_MB", "verified");
  bool all_ok = true;
  double sum_one_shot = 0;
  for (const QueryTiming& t : timings) {
    std::vector<OneShotRun> runs;
    bool verified = true;
    for (int i = 0; i < o.one_shot; i++) {
      runs.push_back(run_one_shot(o.dir, ssb_query_sql(t.name), backend_arg(o.query.backend), o.query.threads));
      verified &= same_csv(runs.back().csv, t.first);
    }
    std::sort(runs.begin(), runs.end(),
              [](const OneShotRun& a, const OneShotRun& b) { return a.end_to_end_ms < b.end_to_end_ms; });
    const OneShotRun& m = runs[runs.size() / 2];
    const double resident = t.device_ms.empty() ? t.median_ms : summarize(t.device_ms).median;
    auto bytes = [&m](const char* k) { return m.bytes.count(k) ? m.bytes.at(k) : 0ull; };
    auto stage = [&m](const char* k) { return m.stage_ms.count(k) ? m.stage_ms.at(k) : 0.0; };
    sum_one_shot += m.end_to_end_ms;
    all_ok &= verified;
    std::printf("%-6s %10.3f %10.3f %11.2f %-7s %9.2f %9.1f %9.1f %9.1f  %s\n", t.name.c_str(), resident, t.median_ms,
                m.end_to_end_ms, m.backend.c_str(), stage("startup"), double(bytes("column_files_read")) / 1e6,
                double(bytes("needed")) / 1e6, double(bytes("to_device")) / 1e6, verified ? "yes" : "NO");
    if (!run.json.is_open()) continue;
    nlohmann::ordered_json j;
    j["suite"] = "ssb";
    j["query"] = t.name;
    j["mode"] = "end_to_end";
    j["backend"] = t.first.backend;
    j["resident_ms"] = resident;
    j["warm_ms"] = t.median_ms;
    j["one_shot_ms"] = m.end_to_end_ms;
    std::vector<double> all;
    for (auto& r : runs) all.push_back(r.end_to_end_ms);
    j["one_shot_times_ms"] = all;
    j["one_shot_backend"] = m.backend;
    j["one_shot_stages_ms"] = m.stage_ms;
    if (m.kernels_ms >= 0) j["one_shot_kernels_ms"] = m.kernels_ms;
    j["bytes_read"] = bytes("column_files_read");
    j["bytes_read_at_open"] = bytes("read_at_open");
    j["bytes_needed"] = bytes("needed");
    j["bytes_to_device"] = bytes("to_device");
    j["verified"] = verified;
    j["lineorder_rows"] = run.lineorder_rows;
    j["db"] = o.dir;
    add_run_context(j, run.machine);
    run.json << j.dump() << "\n";
  }
  std::printf("%-6s %10s %10s %11.2f\n", "sum", "", "", sum_one_shot);
  return all_ok;
}

}  // namespace

void run_ssb_bench(const SsbBenchOptions& o) {
  auto storage = ensure_ssb_database(o.dir, o.generate_sf, o.seed, o.query.threads);
  Database db(storage);
  auto timings = run_ssb_queries(db, o.query, o.warmup, o.reps, o.only);
  SsbRun run;
  run.options = &o;
  run.machine = machine_info();
  run.threads = o.query.threads > 0 ? o.query.threads : omp_get_max_threads();
  run.lineorder_rows = storage->table("lineorder")->row_count();
  if (!o.json.empty()) {
    run.json.open(o.json);
    if (!run.json) fail(ErrorKind::kIO, "cannot write {}", o.json);
  }
  const bool gpu = !timings.empty() && !timings[0].device_ms.empty();
  bool all_ok = gpu ? report_gpu(run, timings, measure_end_to_end(db, o.query, timings)) : report_host(run, timings);
  if (o.one_shot > 0) all_ok &= report_one_shot(run, timings);
  if (!all_ok) fail(ErrorKind::kExecution, "a repetition returned a different result than the first run");
}

}  // namespace raydb::bench
