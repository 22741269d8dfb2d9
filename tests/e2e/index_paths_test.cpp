// The index_paths setting (force / off / cost: the access-path choice overridden for
// tests and benchmarks) and `raydb bench query` (timing arbitrary SQL under several backends
// and index-path settings), on the CPU executor. The GPU side is tests/gpu/gpu_index_test.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <random>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "storage/column.h"
#include "storage/persist/database_directory.h"
#include "storage/table.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

// t: 20000 rows, k in [0, 100).
std::unique_ptr<Database> make_db(const std::string& path) {
  std::mt19937_64 rng(3);
  ColumnBuilder id("id", Type::integer()), k("k", Type::integer());
  for (int i = 0; i < 20000; i++) {
    id.append_int(i);
    k.append_int(int64_t(rng() % 100));
  }
  auto dir = DatabaseDirectory::open_or_create(path);
  dir->commit({std::make_shared<const Table>("t", std::vector<ColumnPtr>{id.finish(), k.finish()})}, false);
  auto db = std::make_unique<Database>(dir);
  db->query("create index t_k on t (k) using sorted");
  return db;
}

std::string explain(Database& db, const std::string& sql, const std::string& paths = "") {
  QueryOptions o{Backend::kCpu};
  if (!paths.empty()) o.settings.set("index_paths", paths);
  return db.query("explain " + sql, o).explain;
}

// The index_paths setting (force / off / cost: the access-path choice overridden for
// tests and benchmarks), per connection.
TEST(IndexPathsOverride, ForceOffAndCost) {
  TempDir tmp;
  auto db = make_db(tmp.file("db"));
  const std::string wide = "select count(*), sum(id) from t where k <> 5";  // ~99% of the rows
  const std::string point = "select count(*), sum(id) from t where k = 5";
  EXPECT_EQ(explain(*db, wide).find("index scan"), std::string::npos);  // the cost model scans
  EXPECT_NE(explain(*db, point).find("index scan t via t_k (sorted, point;"), std::string::npos);
  const std::string wide_scan = db->query(wide).get(0, 1).to_string();
  const std::string point_index = db->query(point).get(0, 1).to_string();

  EXPECT_NE(explain(*db, wide, "force").find("index scan t via t_k (sorted, range;"), std::string::npos)
      << explain(*db, wide, "force");
  Connection conn(*db);
  conn.query("set index_paths = force");
  EXPECT_EQ(conn.query(wide).get(0, 1).to_string(), wide_scan);
  EXPECT_EQ(conn.query("show index_paths").get(0, 0).to_string(), "force");

  EXPECT_EQ(explain(*db, point, "off").find("index "), std::string::npos) << explain(*db, point, "off");
  conn.query("SET index_paths TO 'off'");
  EXPECT_EQ(conn.query(point).get(0, 1).to_string(), point_index);
  EXPECT_EQ(conn.query("explain " + point).explain.find("index "), std::string::npos);
  conn.query("reset index_paths");
  EXPECT_NE(conn.query("explain " + point).explain.find("index scan"), std::string::npos);
  EXPECT_NE(explain(*db, point, "cost").find("index scan"), std::string::npos);

  // A value the setting does not take, or an unknown setting: one line, at SET.
  for (const char* bad : {"set index_paths = sometimes", "set no_such_setting = 1"}) {
    try {
      conn.query(bad);
      ADD_FAILURE() << "no error for " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidInput) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

// The environment gives the process default; a bad value fails where it is used, with
// the variable's name, as before settings existed. --set overrides it.
TEST(IndexPathsOverride, EnvironmentDefaultAndSetFlag) {
  TempDir tmp;
  { auto db = make_db(tmp.file("db")); }
  const std::string point = "explain select count(*) from t where k = 5";
  setenv("RAYDB_INDEX_PATHS", "sometimes", 1);
  CommandResult bad = run_raydb(cli::query(tmp.file("db"), point));
  CommandResult fixed = run_raydb(cli::query(tmp.file("db"), point, "--set index_paths=off"));
  setenv("RAYDB_INDEX_PATHS", "off", 1);
  CommandResult off = run_raydb(cli::query(tmp.file("db"), point));
  unsetenv("RAYDB_INDEX_PATHS");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("RAYDB_INDEX_PATHS='sometimes'"), std::string::npos) << bad.err;
  EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_EQ(fixed.out.find("index scan"), std::string::npos) << fixed.out;
  EXPECT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(off.out.find("index scan"), std::string::npos) << off.out;
  CommandResult unknown = run_raydb(cli::query(tmp.file("db"), point, "--set nope=1"));
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("unknown setting 'nope'"), std::string::npos) << unknown.err;
}

// An IN list spanning more than INT64_MAX (found by the GPU index tests' oracle runs):
// the CPU's bitmap of IN values must not be sized by an overflowed span.
TEST(IndexPathsOverride, InListSpanningMoreThanInt64) {
  TempDir tmp;
  ColumnBuilder b("b", Type::bigint());
  for (int64_t v : {int64_t(-30000000007), int64_t(5), int64_t(7), std::numeric_limits<int64_t>::max()}) b.append_int(v);
  auto dir = DatabaseDirectory::open_or_create(tmp.file("db"));
  dir->commit({std::make_shared<const Table>("x", std::vector<ColumnPtr>{b.finish()})}, false);
  Database db(dir);
  QueryResult r = db.query("select count(*) from x where b in (-30000000007, 5, 9223372036854775807)",
                           QueryOptions{Backend::kCpu});
  EXPECT_EQ(r.get(0, 0).to_string(), "3");
}

TEST(CliBenchQuery, TimesEachConfigurationAndVerifies) {
  TempDir tmp;
  make_db(tmp.file("db"));
  const std::string json = tmp.file("q.jsonl");
  CommandResult r = run_raydb("bench query --db " + shell_quote(tmp.file("db")) +
                              " --backends cpu,rt --index-paths off,force --reps 3 -q " +
                              shell_quote("pt=select count(*), sum(id) from t where k = 7") + " -q " +
                              shell_quote("rows=select id from t where k in (3, 9) and id < 500") + " --json " +
                              shell_quote(json));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split_lines(read_file(json));
  ASSERT_EQ(lines.size(), 8u);  // 2 queries x 2 backends x 2 settings
  auto db = Database::open(tmp.file("db"));
  for (size_t i = 0; i < lines.size(); i++) {
    auto j = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(j["suite"], "query");
    EXPECT_EQ(j["query"], i < 4 ? "pt" : "rows");
    EXPECT_EQ(j["backend_requested"], (i / 2) % 2 == 0 ? "cpu" : "rt");
    EXPECT_EQ(j["index_paths"], i % 2 == 0 ? "off" : "force");
    EXPECT_EQ(j["host_times_ms"].size(), 3u);
    EXPECT_TRUE(j["verified"].get<bool>());
    double mn = j["host_min_ms"], med = j["host_median_ms"], mx = j["host_max_ms"];
    EXPECT_LE(mn, med);
    EXPECT_LE(med, mx);
    const std::string plan = j["plan"];
    if (j["index_paths"] == "off") EXPECT_EQ(plan, "no index");
    else EXPECT_NE(plan.find("index scan t via t_k (sorted,"), std::string::npos) << plan;
    EXPECT_EQ(j["rows"].get<size_t>(), db->query(j["sql"].get<std::string>()).row_count());
  }
  for (const char* bad : {"--reps 0 -q 'a=select 1'", "-q nosql", "--backends cpu --index-paths maybe -q 'a=select 1'"}) {
    CommandResult e = run_raydb("bench query --db " + shell_quote(tmp.file("db")) + " " + bad);
    EXPECT_NE(e.exit_code, 0) << bad;
    EXPECT_EQ(split_lines(e.err).size(), 1u) << bad << ": " << e.err;
  }
}

}  // namespace
}  // namespace raydb::test
