// The measured refinement of the RT scan method through SQL on the CPU methods
// (cpu-scan, cpu-sieve): with a margin that makes every pair a near-tie, the first run
// explores the runner-up, the second times the model's pick, and later runs take the
// faster measured one; EXPLAIN says which. Every run matches SQLite whichever method
// ran. Margin 0 keeps the model's pick and records nothing.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "exec/index/scan_method_timings.h"
#include "raydb/raydb.h"
#include "storage/persist/database_directory.h"
#include "support/rt_scan_sql_cases.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

const char* const kSql = "select count(*), sum(id) from t where a between 10 and 500 and b <= 0 and d < 20000";

struct Fixture {
  TempDir dir;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;
  Fixture() {
    auto d = DatabaseDirectory::open_or_create(dir.file("db"));
    d->commit(rt_scan_sql::make_tables(5, 20000), false);
    db = std::make_unique<Database>(d);
    oracle.load_database(*d);
    db->query("create index t_rs on t (a, b, c, d, s, e) using rtscan");
  }
};

QueryOptions cpu_with_margin(const char* margin) {
  QueryOptions o;
  o.backend = Backend::kCpu;
  o.settings.set("index_paths", "force");
  o.settings.set("rt_scan_adaptive_margin", margin);
  return o;
}

// "; method M (NOTE)" of the EXPLAIN line.
std::pair<std::string, std::string> method_of(Database& db, const QueryOptions& o) {
  const std::string plan = db.query(std::string("explain ") + kSql, o).explain;
  std::smatch m;
  static const std::regex re("; method ([a-z-]+) \\(([^)]*)\\)\\)");
  EXPECT_TRUE(std::regex_search(plan, m, re)) << plan;
  EXPECT_NE(plan.find("rt scan t via t_rs (rtscan, "), std::string::npos) << plan;
  return m.size() == 3 ? std::pair(m[1].str(), m[2].str()) : std::pair(std::string(), std::string());
}

bool exploring(const std::string& note) { return note.rfind("explore: ", 0) == 0 || note.rfind("model; ", 0) == 0; }

// Runs the query, each run against SQLite, until three runs have taken a settled
// choice: each says "measured A ms vs OTHER B ms" and takes the faster one. Between
// them the choice may explore again: every run adds a time, and when a method's median
// moves to within 10% of another's (timings under sanitizers or a loaded machine vary
// by more than that) the near-tie is run until each has ScanMethodTimings::kSettleRuns
// times again. It must settle within the bound.
void expect_settles_on_the_fastest(Fixture& f, const QueryOptions& o, const std::set<std::string>& allowed) {
  int settled = 0;
  for (int i = 0; i < 40 && settled < 3; i++) {
    auto [m, n] = method_of(*f.db, o);
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, kSql, o));
    if (exploring(n)) continue;
    EXPECT_TRUE(allowed.count(m)) << m;
    std::smatch x;
    ASSERT_TRUE(std::regex_match(n, x, std::regex("measured ([0-9.]+) ms vs ([a-z-]+) ([0-9.]+) ms"))) << n;
    EXPECT_LE(std::stod(x[1].str()), std::stod(x[3].str())) << n;  // the faster one is taken
    EXPECT_NE(x[2].str(), m);
    settled++;
  }
  EXPECT_EQ(settled, 3) << "the choice did not settle within 40 runs";
}

TEST(RtScanAdaptiveSql, NearTieExploredThenFasterMeasuredKept) {
  Fixture f;
  exec::ScanMethodTimings::shared().clear();
  const QueryOptions o = cpu_with_margin("10");
  auto [first, note1] = method_of(*f.db, o);
  EXPECT_EQ(note1.rfind("explore: ", 0), 0u) << note1;
  EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, kSql, o));  // runs and times the runner-up
  auto [second, note2] = method_of(*f.db, o);
  EXPECT_NE(second, first);
  EXPECT_EQ(note2.rfind("model; " + first + " measured ", 0), 0u) << note2;
  EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, kSql, o));  // runs and times the model's pick
  expect_settles_on_the_fastest(f, o, {first, second});
}

// Under `auto` on a machine without a CUDA device the Embree RT method is a candidate
// too: whatever the model ranks first, once settled the path takes the method that
// measured fastest here, so RT only where it was.
TEST(RtScanAdaptiveSql, AutoSettlesOnTheMeasuredFastest) {
  Fixture f;
  exec::ScanMethodTimings::shared().clear();
  QueryOptions o = cpu_with_margin("10");
  o.backend = Backend::kAuto;
  if (f.db->query(std::string("explain ") + kSql, o).explain.rfind("backend: cuda", 0) == 0)
    GTEST_SKIP() << "a CUDA backend: the GPU-resident index decides (tests/gpu)";
  expect_settles_on_the_fastest(f, o, {"rt", "cpu-scan", "cpu-sieve"});
}

TEST(RtScanAdaptiveSql, MarginZeroKeepsTheModel) {
  Fixture f;
  exec::ScanMethodTimings::shared().clear();
  const QueryOptions o = cpu_with_margin("0");
  auto [m0, note0] = method_of(*f.db, o);
  EXPECT_EQ(note0, "model");
  for (int i = 0; i < 3; i++) {
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, kSql, o));
    auto [m, note] = method_of(*f.db, o);
    EXPECT_EQ(m, m0);
    EXPECT_EQ(note, "model");
  }
  QueryOptions bad;
  EXPECT_THROW(bad.settings.set("rt_scan_adaptive_margin", "-1"), Error);
  EXPECT_THROW(bad.settings.set("rt_scan_adaptive_margin", "0.1x"), Error);
}

// One method forced: no choice to refine, no note.
TEST(RtScanAdaptiveSql, OneMethodHasNoNote) {
  Fixture f;
  QueryOptions o = cpu_with_margin("10");
  o.settings.set("rt_scan_method", "cpu-sieve");
  const std::string plan = f.db->query(std::string("explain ") + kSql, o).explain;
  EXPECT_NE(plan.find("(rtscan, cpu-sieve;"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("; method "), std::string::npos) << plan;
  EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, kSql, o));
}

}  // namespace
}  // namespace raydb::test
