#include "bench/query_bench.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "bench/run_context.h"
#include "bench/ssb_runner.h"
#include "bench/timing_stats.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "exec/cuda/cuda_device.h"
#include "raydb/system.h"

namespace raydb::bench {

namespace {

// The access-path lines of an EXPLAIN (index scans, RT scans and joins), joined by "; ".
std::string access_paths(const std::string& explain) {
  std::string out;
  for (size_t p = 0; p <= explain.size();) {
    size_t c = explain.find('\n', p);
    if (c == std::string::npos) c = explain.size();
    const std::string line = explain.substr(p, c - p);
    p = c + 1;
    const bool rt_scan = line.find("rt scan ") != std::string::npos && line.find(" via ") != std::string::npos &&
                         line.find("note: ") == std::string::npos;
    if (rt_scan || line.find("index scan") != std::string::npos || line.find("index join") != std::string::npos) {
      const size_t b = line.find_first_not_of(' ');
      out += (out.empty() ? "" : "; ") + line.substr(b == std::string::npos ? 0 : b);
    }
  }
  return out.empty() ? "no index" : out;
}

// The rows of a result as sorted text: results compared as multisets (without ORDER
// BY the backends may order rows differently).
std::vector<std::string> sorted_rows(const QueryResult& r) {
  std::vector<std::string> v;
  for (size_t i = 0; i < r.row_count(); i++) {
    std::string s;
    for (size_t c = 0; c < r.column_count(); c++) s += r.get(i, c).to_string() + "|";
    v.push_back(s);
  }
  std::sort(v.begin(), v.end());
  return v;
}

// One query under one backend and index-path setting.
struct Configuration {
  Backend backend = Backend::kAuto;
  std::string index_paths;
  std::string explain, ran;
  QueryResult first;
  std::vector<double> host, device;
  double cold_ms = -1;  // one run from host memory (column cache cleared), when asked
  bool verified = true;
};

// Device and copy bandwidth, measured once per run when the queries carry byte counts.
struct Floors {
  double read_gbs = 0, h2d_gbs = 0;
  double read_ms(uint64_t bytes) const { return double(bytes) / (read_gbs * 1e6); }
  double copy_ms(uint64_t bytes) const { return double(bytes) / (h2d_gbs * 1e6); }
};

void time_configuration(Database& db, const std::string& sql, const QueryBenchOptions& o, Configuration& c) {
  QueryOptions opts;
  opts.backend = c.backend;
  opts.settings.set("index_paths", c.index_paths);
  c.explain = db.query("explain " + sql, opts).explain;
  if (!o.bytes.empty() && c.backend == Backend::kCuda) {
    exec::cuda::clear_column_cache();
    Timer timer;
    c.first = db.query(sql, opts);
    c.cold_ms = timer.elapsed_ms();
  }
  for (int i = 0; i < o.warmup; i++) c.first = db.query(sql, opts);
  for (int i = 0; i < o.reps; i++) {
    Timer timer;
    QueryResult r = db.query(sql, opts);
    c.host.push_back(timer.elapsed_ms());
    if (r.device_ms >= 0) c.device.push_back(r.device_ms);
    c.ran = r.backend;
    if (o.warmup == 0 && i == 0)
      c.first = std::move(r);
    else if (!same_result(r, c.first))
      c.verified = false;
  }
}

// Every configuration answers like the first one of its query.
bool same_as_reference(const QueryResult& r, const QueryResult& reference) {
  if (r.row_count() != reference.row_count() || r.column_count() != reference.column_count()) return false;
  return sorted_rows(r) == sorted_rows(reference);
}

void print_configuration(const std::string& name, const Configuration& c, const std::string& plan) {
  const TimingStats h = summarize(c.host), d = summarize(c.device);
  std::printf("%-12s %-6s %-6s %-6s %10.3f %10s %10s %8zu  %-8s %s\n", name.c_str(), backend_name(c.backend),
              c.ran.c_str(), c.index_paths.c_str(), h.median,
              c.device.empty() ? "-" : fmt::format("{:.3f}", d.median).c_str(),
              c.device.empty() ? "-" : fmt::format("{:.3f}", d.min).c_str(), c.first.row_count(),
              c.verified ? "yes" : "NO", plan.c_str());
}

void add_floors(nlohmann::ordered_json& j, const Configuration& c, uint64_t bytes, const Floors& f) {
  j["bytes"] = bytes;
  if (f.read_gbs > 0) {
    const double floor = f.read_ms(bytes);
    j["read_gbs"] = f.read_gbs;
    j["floor_ms"] = floor;
    if (!c.device.empty() && floor > 0) j["gpu_over_floor"] = summarize(c.device).median / floor;
  }
  if (f.h2d_gbs > 0) {
    j["h2d_gbs"] = f.h2d_gbs;
    j["copy_ms"] = f.copy_ms(bytes);
  }
  if (c.cold_ms >= 0) j["cold_host_ms"] = c.cold_ms;
}

nlohmann::ordered_json configuration_record(const std::string& name, const std::string& sql, const Configuration& c,
                                            const std::string& plan, const QueryBenchOptions& o) {
  const TimingStats h = summarize(c.host), d = summarize(c.device);
  nlohmann::ordered_json j;
  j["suite"] = "query";
  j["query"] = name;
  j["sql"] = sql;
  j["backend_requested"] = backend_name(c.backend);
  j["backend"] = c.ran;
  j["index_paths"] = c.index_paths;
  j["plan"] = plan;
  j["explain"] = c.explain;
  j["host_median_ms"] = h.median;
  j["host_min_ms"] = h.min;
  j["host_max_ms"] = h.max;
  j["host_times_ms"] = c.host;
  if (!c.device.empty()) {
    j["gpu_median_ms"] = d.median;
    j["gpu_min_ms"] = d.min;
    j["gpu_max_ms"] = d.max;
    j["gpu_times_ms"] = c.device;
  }
  j["rows"] = c.first.row_count();
  j["reps"] = o.reps;
  j["verified"] = c.verified;
  j["db"] = o.db;
  return j;
}

}  // namespace

void run_query_bench(const QueryBenchOptions& o) {
  auto db = Database::open(o.db);
  std::ofstream json;
  if (!o.json.empty()) {
    json.open(o.json);
    if (!json) fail(ErrorKind::kIO, "cannot write {}", o.json);
  }
  const MachineInfo m = machine_info();
  const SystemInfo sys = system_info();
  const std::string device = sys.gpus.empty() ? "" : sys.gpus[0].name;
  bool all_ok = true;
  Floors floors;
  if (!o.bytes.empty() && std::count(o.backends.begin(), o.backends.end(), Backend::kCuda) > 0) {
    floors.read_gbs = exec::cuda::measure_device_read_gbs();
    floors.h2d_gbs = exec::cuda::measure_host_to_device_gbs();
    std::printf("device read %.0f GB/s, host-to-device %.1f GB/s\n", floors.read_gbs, floors.h2d_gbs);
  }
  std::printf("%-12s %-6s %-6s %-6s %10s %10s %10s %8s  %-8s %s\n", "query", "asked", "ran", "paths", "host_med",
              "gpu_med", "gpu_min", "rows", "verified", "plan");
  for (size_t qi = 0; qi < o.queries.size(); qi++) {
    const auto& [name, sql] = o.queries[qi];
    QueryResult reference;
    bool have_reference = false;
    for (Backend backend : o.backends)
      for (auto& setting : o.index_paths) {
        Configuration c;
        c.backend = backend;
        c.index_paths = setting;
        time_configuration(*db, sql, o, c);
        if (!have_reference) {
          reference = c.first;
          have_reference = true;
        } else {
          c.verified &= same_as_reference(c.first, reference);
        }
        all_ok &= c.verified;
        const std::string plan = access_paths(c.explain);
        print_configuration(name, c, plan);
        if (qi < o.bytes.size() && floors.read_gbs > 0 && !c.device.empty()) {
          const double floor = floors.read_ms(o.bytes[qi]);
          std::printf("%-12s floor %.3f ms (%.2fx), from host memory %.1f ms (copy floor %.1f ms)\n", "", floor,
                      summarize(c.device).median / floor, c.cold_ms, floors.copy_ms(o.bytes[qi]));
        }
        if (json.is_open()) {
          nlohmann::ordered_json j = configuration_record(name, sql, c, plan, o);
          if (qi < o.bytes.size()) add_floors(j, c, o.bytes[qi], floors);
          add_run_context(j, m, device);
          json << j.dump() << "\n";
        }
      }
  }
  if (!all_ok) fail(ErrorKind::kExecution, "a repetition or configuration returned a different result");
}

}  // namespace raydb::bench
