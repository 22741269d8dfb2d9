#include "bench/tpch_bench.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "bench/run_context.h"
#include "bench/ssb_runner.h"
#include "common/error.h"
#include "common/machine_info.h"
#include "gen/tpch/generator.h"
#include "gen/tpch/tpch_queries.h"
#include "storage/loaders/tpch_schema.h"
#include "storage/persist/database_directory.h"

namespace raydb::bench {

namespace {

// One query's outcome: timings, or the one-line error that stopped it.
struct TpchOutcome {
  std::string name;
  std::optional<QueryTiming> timing;
  std::string status = "ok";  // ok | not supported | failed
  std::string error;
};

// Errors raised before execution: SQL raydb does not accept yet.
bool is_not_supported(ErrorKind kind) {
  return kind == ErrorKind::kParse || kind == ErrorKind::kBinder || kind == ErrorKind::kNotImplemented;
}

TpchOutcome run_one(Database& db, const ssb::NamedQuery& q, const TpchBenchOptions& o) {
  TpchOutcome out;
  out.name = q.name;
  try {
    out.timing = time_query(db, q.name, q.sql, o.query, o.warmup, o.reps);
  } catch (const Error& e) {
    out.status = is_not_supported(e.kind()) ? "not supported" : "failed";
    out.error = e.what();
    std::fprintf(stderr, "%s: %s: %s\n", q.name.c_str(), out.status.c_str(), out.error.c_str());
  }
  return out;
}

nlohmann::ordered_json record(const TpchBenchOptions& o, const TpchOutcome& r, uint64_t lineitem_rows, int threads,
                              const MachineInfo& machine) {
  nlohmann::ordered_json j;
  j["suite"] = "tpch";
  j["query"] = r.name;
  j["status"] = r.status;
  if (r.timing) {
    const QueryTiming& t = *r.timing;
    j["backend"] = t.first.backend;
    j["median_ms"] = t.median_ms;
    j["min_ms"] = t.min_ms;
    j["max_ms"] = t.max_ms;
    j["rows"] = t.rows;
    j["verified"] = t.verified;
    j["times_ms"] = t.times_ms;
    if (!t.device_ms.empty()) j["gpu_times_ms"] = t.device_ms;
  } else {
    j["error"] = r.error;
  }
  j["reps"] = o.reps;
  j["lineitem_rows"] = lineitem_rows;
  j["db"] = o.dir;
  j["threads"] = threads;
  add_run_context(j, machine);
  return j;
}

// A database given with --sf must be of that scale factor: orders has exactly
// 1,500,000 x SF rows, for raydb's generator and dbgen's alike.
void check_scale_factor(const DatabaseDirectory& db, const std::string& dir, double sf) {
  const uint64_t want = tpch::row_counts(sf).orders, have = db.table("orders")->row_count();
  if (have != want)
    fail(ErrorKind::kInvalidInput, "{} holds TPC-H with {} orders, SF {} has {}; leave out --sf to measure it as it is",
         dir, have, sf, want);
}

}  // namespace

std::shared_ptr<DatabaseDirectory> ensure_tpch_database(const std::string& dir, double sf, uint64_t seed, int threads) {
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(dir) / "manifest.json")) {
    auto db = DatabaseDirectory::open(dir);
    bool complete = true;
    for (auto& t : tpch::schema()) complete &= db->table(t.name) != nullptr;
    if (complete && sf > 0) check_scale_factor(*db, dir, sf);
    if (complete) return db;
  }
  // Measuring data nobody asked for (a typo in --db) would look like a result.
  if (!(sf > 0))
    fail(ErrorKind::kInvalidInput,
         "{} {}; generate it with `raydb gen tpch --sf SF --db {}`, or give --sf SF to generate it here", dir,
         fs::exists(dir) ? "holds no complete TPC-H database" : "does not exist", dir);
  auto db = DatabaseDirectory::open_or_create(dir);
  std::fprintf(stderr, "generating TPC-H at SF %g into %s\n", sf, dir.c_str());
  tpch::GenOptions g;
  g.scale_factor = sf;
  g.seed = seed;
  g.threads = threads;
  db->commit(tpch::generate(g), /*replace=*/true);
  return db;
}

void run_tpch_bench(const TpchBenchOptions& o) {
  auto storage = ensure_tpch_database(o.dir, o.generate_sf, o.seed, o.query.threads);
  Database db(storage);
  std::vector<TpchOutcome> outcomes;
  for (auto& q : tpch::standard_queries())
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), q.name) != o.only.end())
      outcomes.push_back(run_one(db, q, o));

  std::ofstream json;
  if (!o.json.empty()) {
    json.open(o.json);
    if (!json) fail(ErrorKind::kIO, "cannot write {}", o.json);
  }
  const MachineInfo machine = machine_info();
  const int threads = o.query.threads > 0 ? o.query.threads : omp_get_max_threads();
  const uint64_t lineitem_rows = storage->table("lineitem")->row_count();
  std::printf("%-6s %10s %10s %10s %8s  %s\n", "query", "median_ms", "min_ms", "max_ms", "rows", "verified");
  double sum = 0;
  int ran = 0;
  bool all_ok = true;
  for (const TpchOutcome& r : outcomes) {
    if (r.timing) {
      const QueryTiming& t = *r.timing;
      std::printf("%-6s %10.2f %10.2f %10.2f %8zu  %s\n", t.name.c_str(), t.median_ms, t.min_ms, t.max_ms, t.rows,
                  t.verified ? "yes" : "NO");
      sum += t.median_ms;
      ran++;
      all_ok &= t.verified;
    } else {
      std::printf("%-6s %s\n", r.name.c_str(), r.status.c_str());
      all_ok &= r.status != "failed";
    }
    if (json.is_open()) json << record(o, r, lineitem_rows, threads, machine).dump() << "\n";
  }
  std::printf("%-6s %10.2f  (%d of %zu queries ran)\n", "sum", sum, ran, outcomes.size());
  if (!all_ok) fail(ErrorKind::kExecution, "a TPC-H query failed or a repetition returned a different result");
}

}  // namespace raydb::bench
