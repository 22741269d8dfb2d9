#include "bench/ssb_runner.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "bench/timing_stats.h"
#include "common/timer.h"
#include "common/wall_sampler.h"
#include "gen/ssb/generator.h"
#include "gen/ssb/ssb_queries.h"
#include "storage/loaders/ssb_schema.h"
#include "storage/persist/database_directory.h"

namespace raydb::bench {

std::shared_ptr<DatabaseDirectory> ensure_ssb_database(const std::string& dir, double sf, uint64_t seed, int threads) {
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(dir) / "manifest.json")) {
    auto db = DatabaseDirectory::open(dir);
    bool complete = true;
    for (auto& t : ssb::schema()) complete &= db->table(t.name) != nullptr;
    if (complete) return db;
  }
  auto db = DatabaseDirectory::open_or_create(dir);
  std::fprintf(stderr, "generating SSB at SF %g into %s\n", sf, dir.c_str());
  ssb::GenOptions g;
  g.scale_factor = sf;
  g.seed = seed;
  g.threads = threads;
  db->commit(ssb::generate(g), /*replace=*/true);
  return db;
}

bool same_result(const QueryResult& a, const QueryResult& b) {
  if (a.row_count() != b.row_count() || a.column_count() != b.column_count()) return false;
  for (size_t r = 0; r < a.row_count(); r++)
    for (size_t c = 0; c < a.column_count(); c++)
      if (!(a.get(r, c) == b.get(r, c))) return false;
  return true;
}

std::string ssb_query_sql(const std::string& name) {
  for (auto& q : ssb::standard_queries())
    if (q.name == name) return q.sql;
  return "";
}

QueryTiming time_query(Database& db, const std::string& name, const std::string& sql, const QueryOptions& options,
                       int warmup, int reps) {
  QueryTiming t;
  t.name = name;
  wall_sampler::pause();  // RAYDB_SAMPLE: the timed runs only
  for (int i = 0; i < warmup; i++) {
    QueryResult r = db.query(sql, options);
    if (i == 0) t.first = std::move(r);
  }
  wall_sampler::resume();
  for (int i = 0; i < reps; i++) {
    Timer timer;
    QueryResult r = db.query(sql, options);
    t.times_ms.push_back(timer.elapsed_ms());
    if (r.device_ms >= 0) t.device_ms.push_back(r.device_ms);
    if (warmup == 0 && i == 0)
      t.first = std::move(r);
    else if (!same_result(r, t.first))
      t.verified = false;
  }
  wall_sampler::pause();
  const TimingStats s = summarize(t.times_ms);
  t.min_ms = s.min;
  t.max_ms = s.max;
  t.median_ms = s.median;
  t.rows = t.first.row_count();
  return t;
}

std::vector<QueryTiming> run_ssb_queries(Database& db, const QueryOptions& options, int warmup, int reps,
                                         const std::vector<std::string>& only) {
  std::vector<QueryTiming> out;
  for (auto& q : ssb::standard_queries()) {
    if (!only.empty() && std::find(only.begin(), only.end(), q.name) == only.end()) continue;
    out.push_back(time_query(db, q.name, q.sql, options, warmup, reps));
  }
  return out;
}

}  // namespace raydb::bench
