// Grouped order statistics on the CPU backend read a root column in place (no (group,
// value) pairs: exec/cpu/column_order_stats.h), against DuckDB as the oracle: few
// groups (per-group histograms), many groups (segmented select), hash-grouped keys
// (worker-local group ids rewritten as global ones), a unique star join (in place) and
// a non-unique one (the collecting path), WHERE clauses that empty groups or drop every
// row, k from count(*), quantile lists, DISTINCT beside plain, NULLs, and every key type
// (INTEGER, BIGINT, DOUBLE with NaN/inf/-0.0, DECIMAL, VARCHAR codes, DATE). Each query
// runs with 1, 2 and 4 threads; EXPLAIN ANALYZE says whether it ran in place, so a test
// cannot pass on the other path unnoticed; the cpu_order_stats setting forces each
// algorithm (and the collecting path) on every query too. Skipped without python3's duckdb.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

struct TableDef {
  std::string name;
  std::vector<std::pair<std::string, std::string>> columns;
};
const TableDef kFact = {"f",
                        {{"g5", "INTEGER"}, {"c", "INTEGER"}, {"k", "INTEGER"}, {"i", "INTEGER"}, {"b", "BIGINT"},
                         {"d", "DOUBLE"}, {"m", "DECIMAL(12,2)"}, {"s", "VARCHAR"}, {"dt", "DATE"}}};
const TableDef kDim = {"dim", {{"key", "INTEGER"}, {"yr", "INTEGER"}, {"region", "VARCHAR"}}};
const TableDef kDup = {"dup", {{"key", "INTEGER"}, {"val", "INTEGER"}}};

std::string schema_of(const TableDef& t) {
  std::string s;
  for (auto& [n, ty] : t.columns) s += (s.empty() ? "" : ", ") + n + " " + ty;
  return s;
}

// 50,000 fact rows (several morsels, so several workers record rows): g5 in 0..4, c in
// 0..2999 (about 17 rows a group), k in 0..99 (dim has keys 0..89 only), values mixing
// random ones with their types' extremes.
std::string make_fact() {
  std::mt19937_64 rng(20261127);
  const char* doubles[] = {"nan", "inf", "-inf", "-0.0", "0.0", "1e308", "-1e308", "5e-324", "2.5", "-7.25"};
  const char* words[] = {"a", "ab", "b", "zz", "MFGR#1", "mfgr#1", "x y", "b b"};
  std::string csv = "g5,c,k,i,b,d,m,s,dt\n";
  char line[256];
  for (int r = 0; r < 50000; r++) {
    long long i = int64_t(rng() % 2001) - 1000, b = int64_t(rng()) >> int(rng() % 60);
    if (rng() % 500 == 0) i = rng() % 2 ? 2147483647 : -2147483647 - 1;
    if (rng() % 500 == 0) b = rng() % 2 ? INT64_MAX : INT64_MIN;
    const std::string d =
        rng() % 16 == 0 ? doubles[rng() % 10] : std::to_string(double(int64_t(rng() % 100000) - 50000) / 8);
    const long long m = int64_t(rng() % 2000001) - 1000000;
    std::snprintf(line, sizeof line, "%d,%d,%d,%lld,%lld,%s,%s%lld.%02lld,%s,%04d-%02d-%02d\n", int(rng() % 5),
                  int(rng() % 3000), int(rng() % 100), i, b, d.c_str(), m < 0 ? "-" : "", std::llabs(m) / 100,
                  std::llabs(m) % 100, words[rng() % 8], 1992 + int(rng() % 7), 1 + int(rng() % 12),
                  1 + int(rng() % 28));
    csv += line;
  }
  return csv;
}

std::string make_dim() {
  const char* regions[] = {"ASIA", "EUROPE", "AMERICA"};
  std::string csv = "key,yr,region\n";
  for (int k = 0; k < 90; k++) csv += std::to_string(k) + "," + std::to_string(1992 + k % 7) + "," + regions[k % 3] + "\n";
  return csv;
}

// Every key 0..49 twice: a join into it repeats fact rows.
std::string make_dup() {
  std::string csv = "key,val\n";
  for (int k = 0; k < 50; k++) csv += std::to_string(k) + "," + std::to_string(k % 4) + "\n" + std::to_string(k) + "," +
                                      std::to_string(k % 4 + 10) + "\n";
  return csv;
}

bool same_value(const Value& v, const nlohmann::json& oracle) {
  if (v.is_null()) return oracle.is_null();
  if (oracle.is_null()) return false;
  const std::string o = oracle.get<std::string>();
  if (v.type().id != TypeId::kDouble) return v.to_string() == o;
  const double a = v.as_double(), b = std::strtod(o.c_str(), nullptr);
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b;  // -0.0 == 0.0: which of two equal zeros is selected is each engine's choice
}

struct Case {
  std::string sql;     // raydb
  std::string oracle;  // DuckDB (the same text unless given)
  bool in_place;       // EXPLAIN ANALYZE must say the column was read in place (or must not)
};

class GroupedOrderStats : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (std::system("python3 -c 'import duckdb' >/dev/null 2>&1") != 0) return;
    dir_ = new TempDir();
    write_file(dir_->file("f.csv"), make_fact());
    write_file(dir_->file("dim.csv"), make_dim());
    write_file(dir_->file("dup.csv"), make_dup());
    for (const TableDef* t : {&kFact, &kDim, &kDup}) {
      CommandResult r = run_raydb(cli::load_csv(dir_->file("db"), t->name, schema_of(*t), dir_->file(t->name + ".csv")));
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    db_ = Database::open(dir_->file("db")).release();
  }
  static void TearDownTestSuite() {
    delete db_;
    delete dir_;
    db_ = nullptr;
    dir_ = nullptr;
  }

  // DuckDB's rows of each query (its `setup` statements first, on the same connection).
  nlohmann::json oracle(const std::vector<Case>& cases, const std::vector<std::string>& setup = {}) {
    nlohmann::json req;
    for (const TableDef* t : {&kFact, &kDim, &kDup}) {
      nlohmann::json cols = nlohmann::json::array();
      for (auto& [n, ty] : t->columns) cols.push_back({n, ty});
      req["tables"].push_back({{"name", t->name}, {"csv", dir_->file(t->name + ".csv")}, {"columns", cols}});
    }
    for (auto& s : setup) req["queries"].push_back(s);
    for (auto& c : cases) req["queries"].push_back(c.oracle.empty() ? c.sql : c.oracle);
    write_file(dir_->file("req.json"), req.dump());
    const std::string cmd = "python3 " + source_dir() + "/tests/support/duckdb_oracle.py < " + dir_->file("req.json") +
                            " > " + dir_->file("out.json");
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    nlohmann::json out = nlohmann::json::parse(read_file(dir_->file("out.json")));
    out.erase(out.begin(), out.begin() + long(setup.size()));
    return out;
  }

  void check(const std::vector<Case>& cases, const std::vector<std::string>& setup = {}) {
    if (!db_) GTEST_SKIP() << "python3 with duckdb is not available (pip install duckdb)";
    const nlohmann::json out = oracle(cases, setup);
    ASSERT_EQ(out.size(), cases.size());
    for (size_t k = 0; k < cases.size(); k++) {
      const Case& c = cases[k];
      ASSERT_FALSE(out[k].contains("error")) << c.sql << ": " << out[k]["error"];
      const nlohmann::json& rows = out[k]["rows"];
      // The default with 1, 2 and 4 threads; then each in-place algorithm forced
      // whatever the group count, and the collecting path, with 2.
      const std::vector<std::pair<int, const char*>> runs = {
          {1, "auto"}, {2, "auto"}, {4, "auto"}, {2, "histograms"}, {2, "segments"}, {2, "collect"}};
      for (auto [threads, mode] : runs) {
        // Histograms forced over thousands of groups: 2^8 counters per group and thread
        // per pass, correct but slow (auto never picks them there).
        if (std::string(mode) == "histograms" && rows.size() > 200) continue;
        QueryOptions o{Backend::kCpu};
        o.threads = threads;
        o.settings.set("cpu_order_stats", mode);
        const std::string how = " (" + std::to_string(threads) + " threads, cpu_order_stats " + mode + ")";
        const std::string explained = db_->query("explain analyze " + c.sql, o).explain;
        EXPECT_EQ(explained.find("in place") != std::string::npos, c.in_place && std::string(mode) != "collect")
            << c.sql << how << "\n" << explained;
        QueryResult r = db_->query(c.sql, o);
        ASSERT_EQ(r.row_count(), rows.size()) << c.sql << how;
        for (size_t i = 0; i < r.row_count(); i++)
          for (size_t col = 0; col < r.column_count(); col++)
            EXPECT_TRUE(same_value(r.get(i, col), rows[i][col]))
                << c.sql << how << "\n row " << i << " column " << col << ": raydb " << r.get(i, col).to_string()
                << ", DuckDB " << rows[i][col].dump();
      }
    }
  }

  static TempDir* dir_;
  static Database* db_;
};
TempDir* GroupedOrderStats::dir_ = nullptr;
Database* GroupedOrderStats::db_ = nullptr;

// Every key type in one query: 5 groups (per-group histograms), about 3000 groups
// (segmented select), and no GROUP BY.
const char* kEveryType =
    "median(i), quantile_disc(i, 0.9), median(b), quantile_cont(b, 0.3), median(d), quantile_disc(d, 0.1), "
    "quantile_cont(m, 0.25), quantile_disc(m, 1), quantile_disc(s, 0.5), quantile_disc(dt, 0.3), count(*)";

TEST_F(GroupedOrderStats, FewGroupsManyGroupsAndNoneOverEveryType) {
  const std::string a = kEveryType;
  check({{"select g5, " + a + " from f group by g5 order by g5", "", true},
         {"select c, " + a + " from f group by c order by c", "", true},
         {"select " + a + " from f", "", true}});
}

// Keys whose packed range is too wide for direct ids are hashed per worker: few groups
// (i % 3) and about 10,000 groups of a few rows (i, g5).
TEST_F(GroupedOrderStats, HashedGroupKeys) {
  check({{"select i % 3, median(i), quantile_disc(s, 0.2), median(d) from f group by i % 3 order by i % 3", "", true},
         {"select i, g5, median(b), quantile_cont(m, 0.5), quantile_disc(dt, 0.5), quantile_disc(s, 0.7) from f "
          "group by i, g5 order by i, g5",
          "", true}});
}

// A unique join keeps each fact row once (in place); a join into duplicated keys
// repeats rows, so the values are collected as before.
TEST_F(GroupedOrderStats, StarJoinsUniqueAndNot) {
  check({{"select yr, median(f.i), quantile_disc(f.s, 0.25), median(f.d) from f, dim where f.k = dim.key and "
          "dim.yr <> 1995 group by yr order by yr",
          "", true},
         {"select region, c % 7, median(f.m), quantile_disc(f.dt, 0.8) from f, dim where f.k = dim.key and "
          "region <> 'EUROPE' group by region, c % 7 order by region, c % 7",
          "", true},
         {"select median(f.b), quantile_disc(f.s, 0.5) from f, dim where f.k = dim.key and dim.yr = 1993", "", true},
         {"select dup.val, median(f.i), quantile_cont(f.d, 0.5) from f, dup where f.k = dup.key group by dup.val "
          "order by dup.val",
          "", false},
         {"select median(dim.yr) from f, dim where f.k = dim.key", "", false}});
}

// WHERE empties some groups (they are absent) or drops every row (NULL without GROUP BY,
// no rows with it).
TEST_F(GroupedOrderStats, WhereEmptiesGroups) {
  check({{"select g5, median(i), quantile_disc(s, 0.5) from f where i > 0 and g5 <> 3 group by g5 order by g5", "",
          true},
         {"select c, median(b), quantile_disc(dt, 0.5) from f where c < 100 and b > 0 group by c order by c", "", true},
         {"select median(i), quantile_disc(s, 0.5), quantile_cont(m, 0.2) from f where i > 2147483647", "", true},
         {"select g5, median(i) from f where i > 2147483647 group by g5 order by g5", "", true},
         {"select k, median(d), count(*) from f where k between 10 and 12 group by k order by k", "", true}});
}

// k from count(*) (evaluated per group after the other aggregates), constant k beyond
// some groups, and quantile lists sharing the column's passes. DuckDB has no k-th
// functions: its oracle is the sorted list, indexed from 1.
TEST_F(GroupedOrderStats, KFromAggregatesAndQuantileLists) {
  check({{"select g5, kth_smallest(i, count(*) / 2), kth_largest(b, 3), count(*) from f group by g5 order by g5",
          "select g5, list_sort(list(i))[count(*) // 2], list_sort(list(b), 'DESC')[3], count(*) from f group by g5 "
          "order by g5",
          true},
         {"select c, kth_smallest(m, count(*) / 3 + 1), kth_largest(dt, 20), kth_smallest(s, 2) from f group by c "
          "order by c",
          "select c, list_sort(list(m))[count(*) // 3 + 1], list_sort(list(dt), 'DESC')[20], list_sort(list(s))[2] "
          "from f group by c order by c",
          true},
         {"select g5, quantile_disc(i, [0.1, 0.5, 0.9]), quantile_cont(d, [0, 1]) from f group by g5 order by g5",
          "select g5, quantile_disc(i, 0.1), quantile_disc(i, 0.5), quantile_disc(i, 0.9), quantile_cont(d, 0), "
          "quantile_cont(d, 1) from f group by g5 order by g5",
          true}});
}

// DISTINCT and NULL-producing arguments keep the collecting path beside in-place ones;
// a stored column holding NULLs is not read in place.
TEST_F(GroupedOrderStats, DistinctAndNulls) {
  check({{"select g5, median(distinct i % 10), median(i) from f group by g5 order by g5", "", true},
         {"select c, median(case when i % 3 = 0 then null else i end) from f where c < 50 group by c order by c", "",
          false}});
  if (!db_) return;
  const std::vector<std::string> setup = {"create table tn (g integer, x integer)",
                                          "insert into tn values (1, 5), (1, null), (1, 7), (2, null), (3, 1), (3, 2)"};
  for (auto& s : setup) db_->query(s, QueryOptions{Backend::kCpu});
  check({{"select g, median(x), quantile_disc(x, 0.9), count(x) from tn group by g order by g", "", false}}, setup);
  db_->query("drop table tn", QueryOptions{Backend::kCpu});
}

// The setting takes auto, histograms, segments or collect; anything else is a one-line
// error naming them, from SET and from the API alike.
TEST(GroupedOrderStatsSetting, BadValueIsOneLineError) {
  Settings s;
  for (const char* good : {"auto", "histograms", "segments", "collect"}) EXPECT_NO_THROW(s.set("cpu_order_stats", good));
  try {
    s.set("cpu_order_stats", "sorted");
    ADD_FAILURE() << "cpu_order_stats = sorted accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidInput);
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_NE(m.find("auto, histograms, segments or collect"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace raydb::test
