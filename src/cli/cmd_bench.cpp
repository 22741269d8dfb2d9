// raydb bench ssb: time the 13 SSB queries (warm-up, repetitions, median/min/max),
// verify every repetition against the first run, write JSON lines.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/ssb_runner.h"
#include "storage/persist/database_directory.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "raydb/build_config.h"
#include "raydb/system.h"

#include "gen/ssb/ssb_queries.h"

namespace raydb::cli {

namespace {
std::string ssb_query_sql(const std::string& name) {
  for (auto& q : ssb::standard_queries())
    if (q.name == name) return q.sql;
  return "";
}
}  // namespace

void register_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks (JSON lines)");
  bench->require_subcommand(1);
  register_bench_ssb(*bench);
  register_bench_index(*bench);
  register_bench_query(*bench);  // cmd_bench_query.cpp
}

void register_bench_ssb(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("ssb", "Time the 13 SSB queries");
  struct Args {
    std::string db, backend = "auto", json, queries;
    double sf = 0;
    int reps = 10, warmup = 1, threads = 0;
    uint64_t seed = 19920101;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "SSB database directory (generated there at --sf when absent)");
  cmd->add_option("--sf", a->sf, "Scale factor (with no --db: data/ssb-sf<SF>)");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query (default 10)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--seed", a->seed, "Generator seed when data is generated");
  cmd->add_option("--queries", a->queries, "Comma-separated subset, e.g. q1.1,q4.3");
  cmd->add_option("--json", a->json, "Write one JSON object per query to FILE");
  cmd->callback([a]() {
    if (a->db.empty() && a->sf <= 0) fail(ErrorKind::kInvalidInput, "bench ssb needs --db DIR or --sf SF");
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    if (a->threads < 0) fail(ErrorKind::kInvalidInput, "--threads must be >= 0");
    QueryOptions opts;
    opts.backend = parse_backend(a->backend);
    opts.threads = a->threads;
    std::string dir = a->db.empty() ? fmt::format("data/ssb-sf{}", a->sf) : a->db;
    auto storage = ensure_ssb_database(dir, a->sf > 0 ? a->sf : 1.0, a->seed, a->threads);
    Database db(storage);
    std::vector<std::string> only;
    for (size_t p = 0; !a->queries.empty() && p <= a->queries.size();) {
      size_t c = a->queries.find(',', p);
      if (c == std::string::npos) c = a->queries.size();
      only.push_back(a->queries.substr(p, c - p));
      p = c + 1;
    }
    auto timings = run_ssb_queries(db, opts, a->warmup, a->reps, only);
    bool all_ok = true;
    MachineInfo m = machine_info();
    const int threads = a->threads > 0 ? a->threads : omp_get_max_threads();
    const uint64_t lo_rows = storage->table("lineorder")->row_count();
    std::ofstream json;
    if (!a->json.empty()) {
      json.open(a->json);
      if (!json) fail(ErrorKind::kIO, "cannot write {}", a->json);
    }
    // GPU runs: device time from CUDA events on device-resident data, end-to-end
    // time from host memory (column cache cleared before each run), the fact bytes
    // each query reads, and the bandwidth floor from a read measured in this run.
    const bool gpu = !timings.empty() && !timings[0].device_ms.empty();
    double read_gbs = 0;
    std::vector<double> e2e_ms(timings.size(), 0);
    std::vector<uint64_t> fact_bytes(timings.size(), 0);
    if (gpu) {
      read_gbs = measure_gpu_read_gbs();
      for (size_t i = 0; i < timings.size(); i++) {
        std::vector<double> e;
        for (int r = 0; r < 3; r++) {
          drop_gpu_resident_columns();
          Timer timer;
          QueryResult res = db.query(ssb_query_sql(timings[i].name), opts);
          e.push_back(timer.elapsed_ms());
          fact_bytes[i] = res.device_bytes;
          if (!same_result(res, timings[i].first)) timings[i].verified = false;
        }
        std::sort(e.begin(), e.end());
        e2e_ms[i] = e[1];
      }
    }
    auto stats = [](std::vector<double> v, double& med, double& mn, double& mx) {
      std::sort(v.begin(), v.end());
      mn = v.front();
      mx = v.back();
      med = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    if (gpu) {
      std::printf("device read bandwidth (measured now): %.1f GB/s\n", read_gbs);
      std::printf("%-6s %9s %9s %9s %9s %9s %9s %8s %8s  %s\n", "query", "gpu_med", "gpu_min", "gpu_max", "e2e_ms",
                  "fact_MB", "floor_ms", "floor/t", "rows", "verified");
      double gsum = 0, fsum = 0;
      for (size_t i = 0; i < timings.size(); i++) {
        auto& t = timings[i];
        double med, mn, mx;
        stats(t.device_ms, med, mn, mx);
        const double floor_ms = double(fact_bytes[i]) / (read_gbs * 1e9) * 1e3;
        gsum += med;
        fsum += floor_ms;
        all_ok &= t.verified;
        std::printf("%-6s %9.3f %9.3f %9.3f %9.2f %9.1f %9.3f %8.2f %8zu  %s\n", t.name.c_str(), med, mn, mx, e2e_ms[i],
                    double(fact_bytes[i]) / 1e6, floor_ms, floor_ms / med, t.rows, t.verified ? "yes" : "NO");
        if (json.is_open()) {
          nlohmann::ordered_json j;
          j["suite"] = "ssb";
          j["query"] = t.name;
          j["backend"] = t.first.backend;
          j["gpu_median_ms"] = med;
          j["gpu_min_ms"] = mn;
          j["gpu_max_ms"] = mx;
          j["gpu_times_ms"] = t.device_ms;
          j["end_to_end_ms"] = e2e_ms[i];
          j["host_median_ms"] = t.median_ms;
          j["fact_bytes"] = fact_bytes[i];
          j["device_read_gbs"] = read_gbs;
          j["floor_ms"] = floor_ms;
          j["floor_fraction"] = floor_ms / med;
          j["rows"] = t.rows;
          j["reps"] = a->reps;
          j["verified"] = t.verified;
          j["lineorder_rows"] = lo_rows;
          j["db"] = dir;
          j["raydb_version"] = RAYDB_VERSION;
          const SystemInfo sys = system_info();
          if (!sys.gpus.empty()) j["device"] = sys.gpus[0].name;
          j["machine"] = {{"hostname", m.hostname}, {"cpu", m.cpu_model}, {"hardware_threads", m.hardware_threads},
                          {"memory_gib", m.memory_gib}};
          j["timestamp"] = std::time(nullptr);
          json << j.dump() << "\n";
        }
      }
      std::printf("%-6s %9.3f %9s %9s %9s %9s %9.3f\n", "sum", gsum, "", "", "", "", fsum);
      if (!all_ok) fail(ErrorKind::kExecution, "a repetition returned a different result than the first run");
      return;
    }
    std::printf("%-6s %10s %10s %10s %8s  %s\n", "query", "median_ms", "min_ms", "max_ms", "rows", "verified");
    double sum = 0;
    for (auto& t : timings) {
      std::printf("%-6s %10.2f %10.2f %10.2f %8zu  %s\n", t.name.c_str(), t.median_ms, t.min_ms, t.max_ms, t.rows,
                  t.verified ? "yes" : "NO");
      sum += t.median_ms;
      all_ok &= t.verified;
      if (json.is_open()) {
        nlohmann::ordered_json j;
        j["suite"] = "ssb";
        j["query"] = t.name;
        j["backend"] = t.first.backend;
        j["median_ms"] = t.median_ms;
        j["min_ms"] = t.min_ms;
        j["max_ms"] = t.max_ms;
        j["rows"] = t.rows;
        j["reps"] = a->reps;
        j["verified"] = t.verified;
        j["times_ms"] = t.times_ms;
        j["lineorder_rows"] = lo_rows;
        j["db"] = dir;
        j["threads"] = threads;
        j["raydb_version"] = RAYDB_VERSION;
        j["machine"] = {{"hostname", m.hostname}, {"cpu", m.cpu_model}, {"hardware_threads", m.hardware_threads},
                        {"memory_gib", m.memory_gib}};
        j["timestamp"] = std::time(nullptr);
        json << j.dump() << "\n";
      }
    }
    std::printf("%-6s %10.2f\n", "sum", sum);
    if (!all_ok) fail(ErrorKind::kExecution, "a repetition returned a different result than the first run");
  });
}

}  // namespace raydb::cli
