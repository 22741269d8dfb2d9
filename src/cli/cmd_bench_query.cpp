// raydb bench query: time arbitrary SQL queries repeatedly under several backends and
// index-path settings, in one process (so GPU-resident columns and indexes are built
// once, and their build is not timed): warm-up, repetitions, median/min/max of the
// host wall time and, on the GPU, of the device time (CUDA events); every repetition
// and every configuration must return the first configuration's result. The plan of
// each configuration (EXPLAIN: device, access paths, index kinds and both costs) goes
// into the JSON line.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/ssb_runner.h"
#include "common/machine_info.h"
#include "common/timer.h"
#include "raydb/build_config.h"
#include "raydb/system.h"

namespace raydb::cli {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  for (size_t p = 0; p <= s.size();) {
    size_t c = s.find(sep, p);
    if (c == std::string::npos) c = s.size();
    if (c > p) out.push_back(s.substr(p, c - p));
    p = c + 1;
  }
  return out;
}

struct Stats {
  double median = 0, min = 0, max = 0;
};
Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

// The access-path lines of an EXPLAIN (index scans and joins), joined by "; ".
std::string access_paths(const std::string& explain) {
  std::string out;
  for (const std::string& line : split(explain, '\n'))
    if (line.find("index scan") != std::string::npos || line.find("index join") != std::string::npos) {
      const size_t b = line.find_first_not_of(' ');
      out += (out.empty() ? "" : "; ") + line.substr(b == std::string::npos ? 0 : b);
    }
  return out.empty() ? "no index" : out;
}

}  // namespace

void register_bench_query(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("query", "Time SQL queries under several backends and index-path settings");
  struct Args {
    std::string db, backends = "auto", index_paths = "cost", json;
    std::vector<std::string> queries;
    int reps = 10, warmup = 1;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "Database directory")->required();
  cmd->add_option("-q,--query", a->queries, "NAME=SQL (repeatable)")->required();
  cmd->add_option("--backends", a->backends, "Comma-separated: auto, cpu, cuda, rt (default auto)");
  cmd->add_option("--index-paths", a->index_paths,
                  "Comma-separated RAYDB_INDEX_PATHS settings: cost (the cost model), force (an index wherever "
                  "one applies), off (no index) (default cost)");
  cmd->add_option("--reps", a->reps, "Timed repetitions per configuration (default 10)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1; builds columns and indexes)");
  cmd->add_option("--json", a->json, "Write one JSON object per query and configuration to FILE");
  cmd->callback([a]() {
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    std::vector<std::pair<std::string, std::string>> queries;
    for (auto& q : a->queries) {
      const size_t eq = q.find('=');
      if (eq == std::string::npos || eq == 0) fail(ErrorKind::kInvalidInput, "--query takes NAME=SQL (got '{}')", q);
      queries.push_back({q.substr(0, eq), q.substr(eq + 1)});
    }
    std::vector<Backend> backends;
    for (auto& b : split(a->backends, ',')) backends.push_back(parse_backend(b));
    const std::vector<std::string> settings = split(a->index_paths, ',');
    for (auto& s : settings)
      if (s != "cost" && s != "force" && s != "off")
        fail(ErrorKind::kInvalidInput, "--index-paths takes cost, force or off (got '{}')", s);
    if (backends.empty() || settings.empty()) fail(ErrorKind::kInvalidInput, "no --backends or --index-paths given");
    auto db = open_database(a->db);
    std::ofstream json;
    if (!a->json.empty()) {
      json.open(a->json);
      if (!json) fail(ErrorKind::kIO, "cannot write {}", a->json);
    }
    const MachineInfo m = machine_info();
    const SystemInfo sys = system_info();
    bool all_ok = true;
    std::printf("%-12s %-6s %-6s %-6s %10s %10s %10s %8s  %-8s %s\n", "query", "asked", "ran", "paths", "host_med",
                "gpu_med", "gpu_min", "rows", "verified", "plan");
    for (auto& [name, sql] : queries) {
      QueryResult reference;
      bool have_reference = false;
      for (Backend backend : backends)
        for (auto& setting : settings) {
          Settings::set_default("index_paths", setting);
          QueryOptions opts;
          opts.backend = backend;
          const std::string explain = db->query("explain " + sql, opts).explain;
          QueryResult first;
          for (int i = 0; i < a->warmup; i++) first = db->query(sql, opts);
          std::vector<double> host, device;
          bool verified = true;
          std::string ran;
          for (int i = 0; i < a->reps; i++) {
            Timer timer;
            QueryResult r = db->query(sql, opts);
            host.push_back(timer.elapsed_ms());
            if (r.device_ms >= 0) device.push_back(r.device_ms);
            ran = r.backend;
            if (a->warmup == 0 && i == 0)
              first = std::move(r);
            else if (!same_result(r, first))
              verified = false;
          }
          // Every configuration answers like the first one (as a multiset: without
          // ORDER BY the backends may order rows differently).
          if (!have_reference) {
            reference = first;
            have_reference = true;
          } else if (first.row_count() != reference.row_count() || first.column_count() != reference.column_count()) {
            verified = false;
          } else {
            auto rows = [](const QueryResult& r) {
              std::vector<std::string> v;
              for (size_t i = 0; i < r.row_count(); i++) {
                std::string s;
                for (size_t c = 0; c < r.column_count(); c++) s += r.get(i, c).to_string() + "|";
                v.push_back(s);
              }
              std::sort(v.begin(), v.end());
              return v;
            };
            verified &= rows(first) == rows(reference);
          }
          all_ok &= verified;
          const Stats h = stats(host), d = stats(device);
          const std::string plan = access_paths(explain);
          std::printf("%-12s %-6s %-6s %-6s %10.3f %10s %10s %8zu  %-8s %s\n", name.c_str(), backend_name(backend),
                      ran.c_str(), setting.c_str(), h.median, device.empty() ? "-" : fmt::format("{:.3f}", d.median).c_str(),
                      device.empty() ? "-" : fmt::format("{:.3f}", d.min).c_str(), first.row_count(),
                      verified ? "yes" : "NO", plan.c_str());
          if (json.is_open()) {
            nlohmann::ordered_json j;
            j["suite"] = "query";
            j["query"] = name;
            j["sql"] = sql;
            j["backend_requested"] = backend_name(backend);
            j["backend"] = ran;
            j["index_paths"] = setting;
            j["plan"] = plan;
            j["explain"] = explain;
            j["host_median_ms"] = h.median;
            j["host_min_ms"] = h.min;
            j["host_max_ms"] = h.max;
            j["host_times_ms"] = host;
            if (!device.empty()) {
              j["gpu_median_ms"] = d.median;
              j["gpu_min_ms"] = d.min;
              j["gpu_max_ms"] = d.max;
              j["gpu_times_ms"] = device;
            }
            j["rows"] = first.row_count();
            j["reps"] = a->reps;
            j["verified"] = verified;
            j["db"] = a->db;
            j["raydb_version"] = RAYDB_VERSION;
            if (!sys.gpus.empty()) j["device"] = sys.gpus[0].name;
            j["machine"] = {{"hostname", m.hostname}, {"cpu", m.cpu_model}, {"hardware_threads", m.hardware_threads},
                            {"memory_gib", m.memory_gib}};
            j["timestamp"] = std::time(nullptr);
            json << j.dump() << "\n";
          }
        }
    }
    Settings::reset_default("index_paths");
    if (!all_ok) fail(ErrorKind::kExecution, "a repetition or configuration returned a different result");
  });
}

}  // namespace raydb::cli
