// RT scan indexes in SQL (CREATE INDEX ... USING RTSCAN): the catalog (manifest,
// reopen, DROP INDEX, a replaced table, DDL errors that leave the directory
// byte-identical) and the "rt scan" access path compared with SQLite under each way
// of running it: --backend rt (the Embree method), index_paths = force (the cheapest
// method), --backend cpu with force (the CPU methods only) and index_paths = off.
// The path must never change a result; the tests also check it was really taken.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "plan/physical/cost_model.h"
#include "raydb/raydb.h"
#include "storage/column.h"
#include "storage/persist/database_directory.h"
#include "storage/table.h"
#include "support/rt_scan_sql_cases.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

using rt_scan_sql::kCovered;
using rt_scan_sql::kNulls;
using rt_scan_sql::make_tables;

struct ScanDb {
  TempDir dir;
  std::string path;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;
};

ScanDb& scan_db() {
  static ScanDb* f = [] {
    auto* x = new ScanDb;
    x->path = x->dir.file("db");
    auto dir = DatabaseDirectory::open_or_create(x->path);
    dir->commit(make_tables(11), false);
    x->db = std::make_unique<Database>(dir);
    x->oracle.load_database(*dir);
    // Six columns: two groups of three (4+ predicates combine several jobs).
    x->db->query("create index t_rs on t (a, b, c, d, s, e) using rtscan");
    x->db->query("create index u_rs on u (x, y) using rtscan with (bins = 4, groups = 'y; x', sieve = positive)");
    return x;
  }();
  return *f;
}

struct Config {
  const char* name;
  Backend backend;
  const char* paths;  // index_paths
  const char* method;  // the method EXPLAIN must show ("" = any, nullptr = no rt scan)
};
const Config kConfigs[] = {
    {"rt", Backend::kRt, "", "rt"},
    {"auto force", Backend::kAuto, "force", ""},
    {"cpu force", Backend::kCpu, "force", "cpu-"},
    {"auto off", Backend::kAuto, "off", nullptr},
};

// EXPLAIN names the path "rt scan T via IX (rtscan, METHOD; ...": the host index, or on
// the CUDA backend (--backend rt where OptiX runs) the GPU-resident one, "rtscan-gpu".
bool has_path(const std::string& plan, const std::string& table_via_index, const std::string& method) {
  for (const char* where : {"rtscan", "rtscan-gpu"})
    if (plan.find("rt scan " + table_via_index + " (" + where + ", " + method + ";") != std::string::npos) return true;
  return false;
}

QueryOptions opts(Backend b) {
  QueryOptions o;
  o.backend = b;
  return o;
}

QueryOptions options_for(const Config& c) {
  QueryOptions o = opts(c.backend);
  if (*c.paths) o.settings.set("index_paths", c.paths);
  return o;
}

TEST(RtScanSql, CoveredQueriesMatchSqliteUnderEveryPolicy) {
  ScanDb& f = scan_db();
  for (const Config& c : kConfigs)
    for (const char* sql : kCovered) {
      SCOPED_TRACE(std::string(c.name) + ": " + sql);
      const QueryOptions o = options_for(c);
      EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, o));
      const std::string plan = f.db->query(std::string("explain ") + sql, o).explain;
      if (!c.method) {
        EXPECT_EQ(plan.find("rt scan t via"), std::string::npos) << plan;  // no path (a note may name it)
      } else {
        // The host index (rtscan) or, on the CUDA backend, the GPU-resident one (rtscan-gpu).
        const bool host = plan.find("rt scan t via t_rs (rtscan, " + std::string(c.method)) != std::string::npos;
        const bool gpu = plan.find("rt scan t via t_rs (rtscan-gpu, " + std::string(c.method)) != std::string::npos;
        EXPECT_TRUE(host || gpu) << plan;
      }
    }
}

TEST(RtScanSql, NullConstantsNeverMatch) {
  ScanDb& f = scan_db();
  for (const Config& c : kConfigs)
    for (const char* sql : kNulls) {
      SCOPED_TRACE(std::string(c.name) + ": " + sql);
      EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, options_for(c)));
    }
}

// The second table's index: groups and sieving from WITH (...), and the u side of joins.
TEST(RtScanSql, IndexOptionsAndJoinBuildSide) {
  ScanDb& f = scan_db();
  const char* const queries[] = {
      "select count(*) from u where x < 3 and y > 'y2'",
      "select x, y from u where not (x = 1 or y = 'y4') order by x, y",
      "select u.x, count(*) from t join u on t.e = u.x where u.y = 'y1' and t.a < 500 group by u.x order by u.x",
  };
  for (const Config& c : kConfigs)
    for (const char* sql : queries) {
      SCOPED_TRACE(std::string(c.name) + ": " + sql);
      EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, options_for(c)));
    }
  const std::string plan = f.db->query("explain select count(*) from u where x < 3 and y > 'y2'",
                                       options_for(kConfigs[0])).explain;
  EXPECT_TRUE(has_path(plan, "u via u_rs", "rt")) << plan;
  // groups = 'y; x': two 1-D jobs, y's first.
  EXPECT_NE(plan.find("group 0 (1-D"), std::string::npos) << plan;
  EXPECT_NE(plan.find("group 1 (1-D"), std::string::npos) << plan;
}

// EXPLAIN shows the chosen path, its method costs and the index's plan; the cost
// model takes the path for a selective conjunction and leaves it, with the reason,
// for a filter that keeps every row. (--backend cpu: the CPU backend's choice on any
// machine; it offers the CPU methods, --backend rt the RT one.)
TEST(RtScanSql, ExplainAndCostChoice) {
  ScanDb& f = scan_db();
  const std::string sql = "explain select count(*) from t where a < 20 and b > 0 and c < DATE '1992-02-01' and e = 1";
  const std::string selective = f.db->query(sql, opts(Backend::kCpu)).explain;
  EXPECT_NE(selective.find("rt scan t via t_rs (rtscan, cpu-"), std::string::npos) << selective;
  EXPECT_NE(selective.find("methods: cpu-scan "), std::string::npos) << selective;
  EXPECT_NE(selective.find("cpu-sieve "), std::string::npos) << selective;
  EXPECT_EQ(selective.find("methods: rt "), std::string::npos) << selective;
  EXPECT_NE(selective.find("index answers (a < 20)"), std::string::npos) << selective;
  EXPECT_NE(selective.find("group 0 (3-D"), std::string::npos) << selective;
  EXPECT_NE(selective.find("group 1 (3-D"), std::string::npos) << selective;
  EXPECT_NE(selective.find(" sieve F"), std::string::npos) << selective;
  EXPECT_NE(selective.find("residual slabs"), std::string::npos) << selective;
  const std::string forced = f.db->query(sql, opts(Backend::kRt)).explain;
  EXPECT_TRUE(has_path(forced, "t via t_rs", "rt")) << forced;
  EXPECT_NE(forced.find("methods: rt "), std::string::npos) << forced;

  const std::string everything =
      f.db->query("explain select count(*) from t where a >= 0 and e >= 0", opts(Backend::kCpu)).explain;
  EXPECT_EQ(everything.find("rt scan t via t_rs ("), std::string::npos) << everything;
  EXPECT_NE(everything.find("note: rt scan t via t_rs not taken: "), std::string::npos) << everything;
  // A filter the index does not cover is no rt scan at all.
  const std::string other = f.db->query("explain select count(*) from t where g = 5", opts(Backend::kCpu)).explain;
  EXPECT_EQ(other.find("rt scan"), std::string::npos) << other;
}

// Under `auto` a CUDA backend costs the GPU-resident index's methods against the fused
// scan (on a GPU without RT cores its OptiX method never wins); without one the CPU
// backend's cost model decides.
TEST(RtScanSql, AutoOnThisMachine) {
  ScanDb& f = scan_db();
  const std::string plan =
      f.db->query("explain select count(*) from t where a < 20 and b > 0 and c < DATE '1992-02-01' and e = 1").explain;
  if (plan.rfind("backend: cuda", 0) == 0) {
    const bool taken = plan.find("rt scan t via t_rs (rtscan-gpu, gpu-") != std::string::npos;
    EXPECT_TRUE(taken || plan.find("note: rt scan t via t_rs not taken") != std::string::npos) << plan;
  } else {
    EXPECT_NE(plan.find("rt scan t via t_rs ("), std::string::npos) << plan;
  }
}

// The rt_scan_method setting allows one method only (with index_paths = force, the
// path is taken by it), and EXPLAIN ANALYZE reports what the evaluation did.
TEST(RtScanSql, OneMethodAndExplainAnalyze) {
  ScanDb& f = scan_db();
  const std::string sql = "select count(*) from t where a between 10 and 500 and b <= 0 and c < DATE '1993-01-01'";
  for (const char* method : {"cpu-scan", "cpu-sieve", "rt"}) {
    SCOPED_TRACE(method);
    QueryOptions o = opts(Backend::kCpu);
    if (std::string(method) == "rt") o = opts(Backend::kRt);
    o.settings.set("index_paths", "force");
    o.settings.set("rt_scan_method", method);
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, o));
    const std::string plan = f.db->query("explain " + sql, o).explain;
    // --backend rt runs on the CUDA backend (rtscan-gpu) where OptiX is present.
    EXPECT_TRUE(plan.find("rt scan t via t_rs (rtscan, " + std::string(method) + ";") != std::string::npos ||
                plan.find("rt scan t via t_rs (rtscan-gpu, " + std::string(method) + ";") != std::string::npos)
        << plan;
    const size_t costs = plan.find("methods: " + std::string(method) + " ");
    ASSERT_NE(costs, std::string::npos) << plan;
    const std::string line = plan.substr(costs, plan.find('\n', costs) - costs);
    EXPECT_EQ(line.find(", "), std::string::npos) << line;  // no other method costed
    const std::string analyzed = f.db->query("explain analyze " + sql, o).explain;
    EXPECT_NE(analyzed.find("rt scan via t_rs (" + std::string(method) + "): 1 jobs, "), std::string::npos) << analyzed;
    if (std::string(method) == "rt") {
      // Residual rows exist (a between, c's border), so rays were launched.
      EXPECT_EQ(analyzed.find(" 0 rays,"), std::string::npos) << analyzed;
    }
  }
  QueryOptions bad;
  EXPECT_THROW(bad.settings.set("rt_scan_method", "fast"), Error);
}

// The cost choice follows this machine's calibration: the same query takes the path
// when the measured constants make it cheap and scans when they make it dear.
TEST(RtScanSql, CostChoiceFollowsTheCalibration) {
  ScanDb& f = scan_db();
  const std::string sql = "explain select count(*) from t where a < 200 and b > 0 and e = 1";
  auto with = [&](double scale) {
    auto c = std::make_shared<plan::Calibration>();
    c->rt_scan_cpu = {true, 0.5 * scale, 0.02 * scale, 5.0 * scale, 20.0 * scale, 20000.0 * scale, 0.0};
    plan::use_calibration(c);
    std::string plan = f.db->query(sql, opts(Backend::kCpu)).explain;
    plan::use_calibration(nullptr);
    return plan;
  };
  const std::string cheap = with(0.001), dear = with(1000);
  EXPECT_NE(cheap.find("rt scan t via t_rs ("), std::string::npos) << cheap;
  EXPECT_EQ(dear.find("rt scan t via t_rs ("), std::string::npos) << dear;
  EXPECT_NE(dear.find("note: rt scan t via t_rs not taken"), std::string::npos) << dear;
  plan::reload_calibration();
}

std::unique_ptr<Database> fresh_db(TempDir& tmp, uint64_t seed, SqliteOracle* oracle = nullptr, int rows = 5000) {
  auto dir = DatabaseDirectory::open_or_create(tmp.file("db"));
  dir->commit(make_tables(seed, rows), false);
  if (oracle) oracle->load_database(*dir);
  return std::make_unique<Database>(dir);
}

nlohmann::json manifest_of(const std::string& path) {
  std::ifstream in(path + "/manifest.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

const char* const kProbe = "select count(*), sum(id) from t where a < 300 and s > 's4' and e = 2";

TEST(RtScanSql, PersistsAcrossReopenAndDrops) {
  TempDir tmp;
  SqliteOracle oracle;
  const std::string path = tmp.file("db");
  {
    auto db = fresh_db(tmp, 5, &oracle);
    db->query("create index t_rs on t (a, s, e) using rtscan with (bins = 32, groups = 'a, s; e')");
    EXPECT_TRUE(matches_sqlite(*db, oracle, kProbe, opts(Backend::kRt)));
  }
  const nlohmann::json m = manifest_of(path);
  ASSERT_EQ(m["indexes"].size(), 1u);
  EXPECT_EQ(m["indexes"][0]["kind"], "rtscan");
  EXPECT_EQ(m["indexes"][0]["column"], "a");
  EXPECT_EQ(m["indexes"][0]["columns"], nlohmann::json({"a", "s", "e"}));
  EXPECT_EQ(m["indexes"][0]["options"]["groups"], "a, s; e");

  CommandResult d = run_raydb("describe --db " + path);
  EXPECT_NE(d.out.find("  index t_rs: rtscan (a, s, e) with (bins = 32, groups = a, s; e)\n"), std::string::npos) << d.out;
  Database reopened(DatabaseDirectory::open(path));
  ASSERT_EQ(reopened.directory().indexes().size(), 1u);
  EXPECT_EQ(reopened.directory().indexes()[0].column_list(), (std::vector<std::string>{"a", "s", "e"}));
  EXPECT_TRUE(matches_sqlite(reopened, oracle, kProbe, opts(Backend::kRt)));
  const std::string plan = reopened.query(std::string("explain ") + kProbe, opts(Backend::kRt)).explain;
  EXPECT_TRUE(has_path(plan, "t via t_rs", "rt")) << plan;
  EXPECT_NE(plan.find("group 0 (2-D"), std::string::npos) << plan;  // groups = 'a, s; e'

  reopened.query("drop index t_rs");
  EXPECT_TRUE(reopened.directory().indexes().empty());
  EXPECT_FALSE(manifest_of(path).contains("indexes"));
  const std::string after = reopened.query(std::string("explain ") + kProbe, opts(Backend::kRt)).explain;
  EXPECT_EQ(after.find("rt scan"), std::string::npos) << after;
  EXPECT_TRUE(matches_sqlite(reopened, oracle, kProbe, opts(Backend::kRt)));
}

// Replacing the table drops its indexes (they described the old rows); an index
// re-created under the same name is built over the new rows, never the cached old one.
TEST(RtScanSql, ReplacedTableRebuildsTheIndex) {
  TempDir tmp;
  auto db = fresh_db(tmp, 5);
  db->query("create index t_rs on t (a, s, e) using rtscan");
  const std::string before = db->query(kProbe, opts(Backend::kRt)).get(0, 1).to_string();
  db->directory().commit(make_tables(99, 7000), true);
  EXPECT_TRUE(db->directory().indexes().empty());
  db->query("create index t_rs on t (a, s, e) using rtscan");
  SqliteOracle oracle;
  oracle.load_database(db->directory());
  EXPECT_TRUE(matches_sqlite(*db, oracle, kProbe, opts(Backend::kRt)));
  EXPECT_NE(db->query(kProbe, opts(Backend::kRt)).get(0, 1).to_string(), before);
  const std::string plan = db->query(std::string("explain ") + kProbe, opts(Backend::kRt)).explain;
  EXPECT_NE(plan.find("of 7000 rows"), std::string::npos) << plan;
}

TEST(RtScanSql, BadDdlIsOneLineAndChangesNothing) {
  TempDir tmp;
  auto db = fresh_db(tmp, 5, nullptr, 500);
  db->query("create index t_rs on t (a, b) using rtscan");
  const std::string path = tmp.file("db");
  const auto before = snapshot_tree(path);
  struct Case {
    const char* sql;
    const char* message;
  };
  const Case cases[] = {
      {"create index x on t (a, f) using rtscan", "type DOUBLE"},
      {"create index x on t (a, nope) using rtscan", "table 't' has no column 'nope'"},
      {"create index x on nope (a, b) using rtscan", "unknown table 'nope'"},
      {"create index x on t (a, A) using rtscan", "names column a twice"},
      {"create index x on t (a, b) using rtscan with (bucket_size = 4)", "unknown option 'bucket_size' for an rtscan"},
      {"create index x on t (a, b) using rtscan with (bins = 0)", "bins takes an integer from 1"},
      {"create index x on t (a, b) using rtscan with (bins = many)", "bins takes an integer"},
      {"create index x on t (a, b) using rtscan with (bins = 4, bins = 8)", "given twice"},
      {"create index x on t (a, b) using rtscan with (groups = 'a; zz')", "'zz', which is not an indexed column"},
      {"create index x on t (a, b) using rtscan with (groups = 'a, a')", "names column a twice"},
      {"create index x on t (a, b, c, d) using rtscan with (groups = 'a, b, c, d')", "1 to 3 columns"},
      {"create index x on t (a, b) using rtscan with (sieve = sometimes)", "sieve takes nearest"},
      {"create index x on t (a, b) using rtscan with (rt = maybe)", "takes true or false"},
      {"create index x on t (a, b) using rt", "several columns"},
      {"create index x on t (a, b) using sorted", "several columns"},
      {"create index x on t (a, ) using rtscan", "column name"},
      {"create index t_rs on t (c) using rtscan", "index t_rs already exists"},
  };
  for (const Case& c : cases) {
    try {
      db->query(c.sql);
      ADD_FAILURE() << c.sql << ": no error";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(c.message), std::string::npos) << c.sql << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << c.sql << ": " << msg;
    }
    EXPECT_EQ(snapshot_tree(path), before) << c.sql;
  }
  // The CLI: exit code and one line.
  CommandResult r = run_raydb(cli::query(path, "create index x on t (a, f) using rtscan"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("type DOUBLE"), std::string::npos) << r.err;
  EXPECT_EQ(snapshot_tree(path), before);
}

// A single-column RT scan index (one 1-D group) works like any other kind, and the
// CLI reports its build (time and host memory) on stderr.
TEST(RtScanSql, SingleColumnAndBuildReport) {
  TempDir tmp;
  SqliteOracle oracle;
  { auto db = fresh_db(tmp, 8, &oracle); }
  const std::string path = tmp.file("db");
  CommandResult c = run_raydb(cli::query(path, "create index t_a on t (a) using rtscan"));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.err.find("index t_a: built 5000 rows x 1 columns (rtscan: rt, cpu-scan, cpu-sieve) in "), std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find(" MiB host"), std::string::npos) << c.err;
  CommandResult d = run_raydb("describe --db " + path + " --table t");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("  index t_a: rtscan (a)\n"), std::string::npos) << d.out;
  Database db(DatabaseDirectory::open(path));
  for (const char* sql : {"select count(*) from t where a between 17 and 18", "select id from t where a in (3, 4) or a > 995"}) {
    EXPECT_TRUE(matches_sqlite(db, oracle, sql, opts(Backend::kRt))) << sql;
    EXPECT_NE(db.query(std::string("explain ") + sql, opts(Backend::kRt)).explain.find("rt scan t via t_a"),
              std::string::npos)
        << sql;
  }
}

}  // namespace
}  // namespace raydb::test
