// The group-join's host step (sql/binder_group_join.cpp: each left row's counts looked
// up by its key, sql/unique_key_join.h) at sizes past its parallel loops' threshold,
// against SQLite: left keys distinct in no order or 1, 2, ... in order, with NULLs, or held twice (the
// regrouping path); right keys that match no left row, NULL keys and NULL counted
// values; one and two counts; 1 and 2 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include <fmt/format.h>

#include "raydb/raydb.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

constexpr int kCustomers = 100000, kOrders = 250000;

struct GroupJoinFixture {
  TempDir dir;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;

  // cu: distinct keys, shuffled; cua: keys 1, 2, ... in order (scattered to, no index);
  // cun: some NULL keys; cud: some keys held twice.
  // od: orders of keys in and beyond cu's range, some NULL keys, ok and amt.
  GroupJoinFixture() {
    std::mt19937_64 rng(13);
    std::vector<int> keys(kCustomers * 3 / 2);
    std::iota(keys.begin(), keys.end(), 1);
    std::shuffle(keys.begin(), keys.end(), rng);
    keys.resize(kCustomers);
    const std::string path = dir.file("db");
    oracle.exec("BEGIN");
    for (const char* name : {"cu", "cua", "cun", "cud"}) {
      const std::string n = name;
      std::string csv = "ck,grp\n";
      oracle.exec(fmt::format("CREATE TABLE {} (ck INTEGER, grp INTEGER)", n));
      for (int i = 0; i < kCustomers; i++) {
        const bool null = n == "cun" && i % 97 == 5;
        const int key = n == "cua"                       ? i + 1
                        : n == "cud" && i % 1000 == 999 ? keys[size_t(i - 500)]
                                                        : keys[size_t(i)];
        csv += fmt::format("{},{}\n", null ? "" : std::to_string(key), key % 7);
        oracle.exec(fmt::format("INSERT INTO {} VALUES ({}, {})", n, null ? "NULL" : std::to_string(key), key % 7));
      }
      write_file(dir.file(n + ".csv"), csv);
      CommandResult c = run_raydb(cli::load_csv(path, n, "ck INTEGER, grp INTEGER", dir.file(n + ".csv")));
      EXPECT_EQ(c.exit_code, 0) << c.err;
    }
    std::string csv = "ok,ck,note,amt\n";
    oracle.exec("CREATE TABLE od (ok INTEGER, ck INTEGER, note VARCHAR, amt INTEGER)");
    for (int i = 0; i < kOrders; i++) {
      const bool ck_null = i % 101 == 7, ok_null = i % 89 == 3, amt_null = i % 13 == 1;
      const int ck = 1 + int(rng() % (kCustomers * 8 / 5));
      const char* note = rng() % 5 == 0 ? "special requests" : "plain";
      const int amt = int(rng() % 100);
      csv += fmt::format("{},{},{},{}\n", ok_null ? "" : std::to_string(i), ck_null ? "" : std::to_string(ck), note,
                         amt_null ? "" : std::to_string(amt));
      oracle.exec(fmt::format("INSERT INTO od VALUES ({}, {}, '{}', {})", ok_null ? "NULL" : std::to_string(i),
                              ck_null ? "NULL" : std::to_string(ck), note, amt_null ? "NULL" : std::to_string(amt)));
    }
    oracle.exec("COMMIT");
    write_file(dir.file("od.csv"), csv);
    CommandResult c =
        run_raydb(cli::load_csv(path, "od", "ok INTEGER, ck INTEGER, note VARCHAR, amt INTEGER", dir.file("od.csv")));
    EXPECT_EQ(c.exit_code, 0) << c.err;
    db = Database::open(path);
  }
};

GroupJoinFixture& fixture() {
  static GroupJoinFixture f;
  return f;
}

// `sqlite_sql`: SQLite's text where it differs (SQLite names no derived table's columns
// in a list after its alias).
void expect_same(const std::string& sql, const std::string& sqlite_sql = "") {
  for (int threads : {1, 2}) {
    QueryOptions o{Backend::kCpu};
    o.threads = threads;
    EXPECT_TRUE(matches_sqlite(*fixture().db, fixture().oracle, sql, o, sqlite_sql)) << threads << " threads";
  }
}

TEST(GroupJoinLookup, Q13ShapeMatchesSqlite) {
  const std::string q =
      "SELECT c_count, count(*) AS custdist FROM (SELECT {0}.ck{1}, count(od.ok){2} FROM {0} LEFT JOIN od ON {0}.ck = "
      "od.ck AND od.note NOT LIKE '%special%requests%' GROUP BY {0}.ck) AS c_orders{3} "
      "GROUP BY c_count ORDER BY custdist DESC, c_count DESC";
  for (const char* l : {"cu", "cua", "cun", "cud"})
    expect_same(fmt::format(fmt::runtime(q), l, "", "", " (c_custkey, c_count)"),
                fmt::format(fmt::runtime(q), l, " AS c_custkey", " AS c_count", ""));
}

TEST(GroupJoinLookup, CountsPerKeyMatchSqlite) {
  for (const char* l : {"cu", "cua", "cun", "cud"})
    expect_same(fmt::format("SELECT {0}.ck, count(od.ok) FROM {0} LEFT JOIN od ON {0}.ck = od.ck GROUP BY {0}.ck", l));
}

TEST(GroupJoinLookup, TwoCountsPerGroupMatchSqlite) {
  for (const char* l : {"cu", "cua", "cun", "cud"})
    expect_same(fmt::format(
        "SELECT {0}.grp, count(od.ok), count(od.amt) FROM {0} LEFT JOIN od ON {0}.ck = od.ck GROUP BY {0}.grp", l));
}

}  // namespace
}  // namespace raydb::test
