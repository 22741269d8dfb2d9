// DECIMAL arithmetic and sums on the CPU backend (the int64 fast path of + - *, sums
// per group in registers for few groups, repeated subexpressions evaluated once per
// batch) against SQLite over the same values stored as scaled integers, where its
// arithmetic is exact: each DECIMAL sum is compared as an exact integer. NULLs in
// arguments and a group whose arguments are all NULL; few groups (4) and many (997);
// 1 and 2 threads; DISTINCT aggregates. Overflow is still raised where a result leaves
// DECIMAL(18).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <fmt/format.h>

#include "raydb/raydb.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

struct DecimalFixture {
  TempDir dir;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;

  // p DECIMAL(12,2), d and t DECIMAL(4,2) (both in [0, 0.10]); SQLite holds them in cents.
  DecimalFixture() {
    std::mt19937_64 rng(12);
    std::string csv = "g,k,p,d,t\n";
    oracle.exec("CREATE TABLE t (g INTEGER, k INTEGER, p INTEGER, d INTEGER, t INTEGER)");
    oracle.exec("BEGIN");
    auto cents = [](int64_t c) { return fmt::format("{}{}.{:02}", c < 0 ? "-" : "", std::abs(c) / 100, std::abs(c) % 100); };
    for (int i = 0; i < 30000; i++) {
      const int g = i % 50 == 0 ? 4 : int(rng() % 4);  // group 4: every p is NULL
      const int k = int(rng() % 997);
      const int64_t p = int64_t(rng() % 10000000) - 1000000;  // -10,000.00 .. 89,999.99
      const int64_t d = int64_t(rng() % 11), t = int64_t(rng() % 9);
      const bool p_null = g == 4 || rng() % 20 == 0, d_null = rng() % 25 == 0;
      csv += fmt::format("{},{},{},{},{}\n", g, k, p_null ? "" : cents(p), d_null ? "" : cents(d), cents(t));
      oracle.exec(fmt::format("INSERT INTO t VALUES ({}, {}, {}, {}, {})", g, k, p_null ? "NULL" : std::to_string(p),
                              d_null ? "NULL" : std::to_string(d), t));
    }
    oracle.exec("COMMIT");
    const std::string file = dir.file("t.csv"), path = dir.file("db");
    write_file(file, csv);
    CommandResult c = run_raydb(cli::load_csv(path, "t", "g INTEGER, k INTEGER, p DECIMAL(12,2), d DECIMAL(4,2), t DECIMAL(4,2)", file));
    EXPECT_EQ(c.exit_code, 0) << c.err;
    db = Database::open(path);
  }

  void expect_same(const std::string& raydb_sql, const std::string& sqlite_sql) {
    for (int threads : {1, 2}) {
      QueryOptions o{Backend::kCpu};
      o.threads = threads;
      EXPECT_TRUE(matches_sqlite(*db, oracle, raydb_sql, o, sqlite_sql)) << threads << " threads";
    }
  }
};

// SQLite text of the integer expression x read as a decimal with `scale` digits
// (raydb prints DECIMAL with all its scale digits): exact, NULL stays NULL.
std::string dec(const std::string& x, int scale) {
  const std::string unit = "1" + std::string(size_t(scale), '0');
  return fmt::format(
      "(CASE WHEN ({0}) < 0 THEN '-' ELSE '' END || (abs({0}) / {1}) || '.' || substr('{2}' || (abs({0}) % {1}), -{3}))",
      x, unit, std::string(size_t(scale), '0'), scale);
}

// Each DECIMAL result compared as its exact text (t has no NULLs, the others some).
const std::string kSums =
    "CAST(sum(p) AS VARCHAR), CAST(sum(p * (1 - d)) AS VARCHAR), CAST(sum(p * (1 - d) * (1 + t)) AS VARCHAR), "
    "CAST(sum(p + d - 1) AS VARCHAR), count(*), count(p), count(d), CAST(sum(d) AS VARCHAR), "
    "CAST(sum(t) AS VARCHAR), CAST(sum(t * (1 - t)) AS VARCHAR)";
const std::string kSqliteSums = dec("sum(p)", 2) + ", " + dec("sum(p * (100 - d))", 4) + ", " +
                                dec("sum(p * (100 - d) * (100 + t))", 6) + ", " + dec("sum(p + d - 100)", 2) +
                                ", count(*), count(p), count(d), " + dec("sum(d)", 2) + ", " + dec("sum(t)", 2) + ", " +
                                dec("sum(t * (100 - t))", 4);

TEST(DecimalAggregation, FewGroupsMatchSqliteExactly) {
  DecimalFixture f;
  f.expect_same("SELECT g, " + kSums + " FROM t GROUP BY g", "SELECT g, " + kSqliteSums + " FROM t GROUP BY g");
  // Two keys (a direct packed range of 20 groups) and a filter.
  f.expect_same("SELECT g, k % 5, " + kSums + " FROM t WHERE t <= 0.05 GROUP BY g, k % 5",
                "SELECT g, k % 5, " + kSqliteSums + " FROM t WHERE t <= 5 GROUP BY g, k % 5");
}

TEST(DecimalAggregation, ManyGroupsAndNoGroupsMatchSqliteExactly) {
  DecimalFixture f;
  f.expect_same("SELECT k, " + kSums + " FROM t GROUP BY k", "SELECT k, " + kSqliteSums + " FROM t GROUP BY k");
  f.expect_same("SELECT " + kSums + " FROM t", "SELECT " + kSqliteSums + " FROM t");
}

// The same subexpression in a SUM, a MAX, a COUNT and under a CASE.
TEST(DecimalAggregation, RepeatedSubexpressionsMatchSqlite) {
  DecimalFixture f;
  f.expect_same(
      "SELECT k % 3, CAST(sum(p * (1 - d)) AS VARCHAR), CAST(max(p * (1 - d)) AS VARCHAR), "
      "CAST(sum(CASE WHEN p * (1 - d) > 100 THEN p * (1 - d) ELSE 0 END) AS VARCHAR), count(p * (1 - d)) "
      "FROM t GROUP BY k % 3",
      "SELECT k % 3, " + dec("sum(p * (100 - d))", 4) + ", " + dec("max(p * (100 - d))", 4) + ", " +
          dec("sum(CASE WHEN p * (100 - d) > 1000000 THEN p * (100 - d) ELSE 0 END)", 4) +
          ", count(p * (100 - d)) FROM t GROUP BY k % 3");
}

// DISTINCT aggregates (a flat set of (group, value) pairs, merged across threads):
// DECIMAL, integer and string values, NULLs skipped, few and many groups.
TEST(DecimalAggregation, DistinctAggregatesMatchSqlite) {
  DecimalFixture f;
  for (const char* key : {"g", "k"})
    f.expect_same(fmt::format("SELECT {0}, count(DISTINCT d), CAST(sum(DISTINCT t) AS VARCHAR), count(DISTINCT p), "
                              "CAST(max(DISTINCT d) AS VARCHAR), count(DISTINCT CAST(k % 7 AS VARCHAR)), "
                              "sum(DISTINCT k % 11) FROM t GROUP BY {0}",
                              key),
                  fmt::format("SELECT {0}, count(DISTINCT d), {1}, count(DISTINCT p), {2}, "
                              "count(DISTINCT CAST(k % 7 AS TEXT)), sum(DISTINCT k % 11) FROM t GROUP BY {0}",
                              key, dec("sum(DISTINCT t)", 2), dec("max(DISTINCT d)", 2)));
}

// A result outside DECIMAL(18) is still an error, whichever path computes it.
TEST(DecimalAggregation, OverflowIsStillAnError) {
  TempDir dir;
  const std::string file = dir.file("w.csv"), path = dir.file("db");
  write_file(file, "a,b\n92233720368547759,1.00\n999999999999999,2.00\n1,3.00\n");
  CommandResult c = run_raydb(cli::load_csv(path, "w", "a DECIMAL(18,0), b DECIMAL(18,2)", file));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  auto db = Database::open(path);
  const QueryOptions o{Backend::kCpu};
  // a * 100 leaves int64 (the fast path hands the batch to the 128-bit one, which fails).
  EXPECT_THROW(db->query("SELECT sum(a + b) FROM w", o), Error);
  EXPECT_THROW(db->query("SELECT sum(a - b) FROM w", o), Error);
  // 999999999999999 * 2000 fits int64 but not DECIMAL(18,2)'s 10^18 - 1 bound.
  EXPECT_THROW(db->query("SELECT sum(a * (b * 1000)) FROM w WHERE a < 10000000000000000", o), Error);
  // The rows that fit give exact answers.
  QueryResult r = db->query("SELECT sum(a + b), sum(a * b) FROM w WHERE a < 1000", o);
  EXPECT_EQ(r.get(0, 0).to_string(), "4.00");
  EXPECT_EQ(r.get(0, 1).to_string(), "3.00");
}

}  // namespace
}  // namespace raydb::test
