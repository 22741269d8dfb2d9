// Order statistics in SQL (median, quantile_disc/quantile_cont, percentile_* WITHIN
// GROUP, kth_smallest/kth_largest) on the CPU backend against DuckDB, the oracle
// (SQLite has none of them): adversarial data (32/64-bit extremes, -0.0, NaN, +-inf,
// decimals, strings, dates), NULLs through CASE, GROUP BY, WHERE, HAVING, DISTINCT,
// empty inputs, q = 0 and 1, k = 1 and k beyond the group. DuckDB runs in a python3
// subprocess (tests/support/duckdb_oracle.py; `pip install duckdb`); without it the
// tests report Skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include <nlohmann/json.hpp>

#include "raydb/raydb.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

const char* kSchema = "g INTEGER, i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(12,2), s VARCHAR, dt DATE";
const std::vector<std::pair<std::string, std::string>> kColumns = {
    {"g", "INTEGER"}, {"i", "INTEGER"}, {"b", "BIGINT"},   {"d", "DOUBLE"},
    {"m", "DECIMAL(12,2)"}, {"s", "VARCHAR"}, {"dt", "DATE"}};

// 4000 rows in 12 groups: group 10 holds one value many times, group 11 one row; the
// rest mix random values with the types' extremes.
std::string make_csv() {
  std::mt19937_64 rng(11);
  std::string csv = "g,i,b,d,m,s,dt\n";
  const char* doubles[] = {"nan", "inf", "-inf", "-0.0", "0.0", "1e308", "-1e308", "5e-324", "2.5", "-7.25"};
  // (No empty string: DuckDB's CSV reader reads an empty field as NULL.)
  const char* words[] = {"a", "ab", "b", "zz", "MFGR#1", "mfgr#1", "x y", "b b"};
  char line[256];
  for (int r = 0; r < 4000; r++) {
    const int g = r < 3900 ? int(rng() % 10) : r < 3999 ? 10 : 11;
    long long i = int64_t(rng() % 2001) - 1000, b = int64_t(rng()) >> int(rng() % 60);
    if (rng() % 50 == 0) i = rng() % 2 ? 2147483647 : -2147483647 - 1;
    if (rng() % 50 == 0) b = rng() % 2 ? INT64_MAX : INT64_MIN;
    if (g == 10) i = 7, b = -3;
    std::string d = rng() % 8 == 0 ? doubles[rng() % 10] : std::to_string(double(int64_t(rng() % 100000) - 50000) / 8);
    const long long m = int64_t(rng() % 2000001) - 1000000;
    std::snprintf(line, sizeof line, "%d,%lld,%lld,%s,%s%lld.%02lld,%s,%04d-%02d-%02d\n", g, i, b, d.c_str(),
                  m < 0 ? "-" : "", std::llabs(m) / 100, std::llabs(m) % 100, words[rng() % 8],
                  1992 + int(rng() % 7), 1 + int(rng() % 12), 1 + int(rng() % 28));
    csv += line;
  }
  return csv;
}

// raydb's and DuckDB's text of one value agree: DOUBLE by value (both print shortest
// round-trip forms, differently spelled; -0.0 equals 0.0 as SQL compares them, since
// which of the two equal zeros an engine selects is its own choice), everything else
// as text.
bool same_value(const Value& v, const nlohmann::json& oracle) {
  if (v.is_null()) return oracle.is_null();
  if (oracle.is_null()) return false;
  const std::string o = oracle.get<std::string>();
  if (v.type().id != TypeId::kDouble) return v.to_string() == o;
  const double a = v.as_double(), b = std::strtod(o.c_str(), nullptr);
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b;
}

class OrderStatsSql : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (std::system("python3 -c 'import duckdb' >/dev/null 2>&1") != 0) return;
    dir_ = new TempDir();
    write_file(dir_->file("t.csv"), make_csv());
    CommandResult r = run_raydb(cli::load_csv(dir_->file("db"), "t", kSchema, dir_->file("t.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    db_ = Database::open(dir_->file("db")).release();
  }
  static void TearDownTestSuite() {
    delete db_;
    delete dir_;
  }

  // Runs each (raydb SQL, DuckDB SQL) pair and compares the rows in order.
  void check(const std::vector<std::pair<std::string, std::string>>& queries) {
    if (!db_) GTEST_SKIP() << "python3 with duckdb is not available (pip install duckdb)";
    nlohmann::json req;
    nlohmann::json cols = nlohmann::json::array();
    for (auto& [n, t] : kColumns) cols.push_back({n, t});
    req["tables"] = {{{"name", "t"}, {"csv", dir_->file("t.csv")}, {"columns", cols}}};
    for (auto& q : queries) req["queries"].push_back(q.second);
    write_file(dir_->file("req.json"), req.dump());
    const std::string cmd = "python3 " + source_dir() + "/tests/support/duckdb_oracle.py < " + dir_->file("req.json") +
                            " > " + dir_->file("out.json");
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const nlohmann::json out = nlohmann::json::parse(read_file(dir_->file("out.json")));
    for (size_t k = 0; k < queries.size(); k++) {
      const std::string& sql = queries[k].first;
      ASSERT_FALSE(out[k].contains("error")) << queries[k].second << ": " << out[k]["error"];
      const nlohmann::json& rows = out[k]["rows"];
      QueryResult r = db_->query(sql, QueryOptions{Backend::kCpu});
      ASSERT_EQ(r.row_count(), rows.size()) << sql;
      for (size_t i = 0; i < r.row_count(); i++)
        for (size_t c = 0; c < r.column_count(); c++)
          EXPECT_TRUE(same_value(r.get(i, c), rows[i][c]))
              << sql << "\n row " << i << " column " << c << ": raydb " << r.get(i, c).to_string() << ", DuckDB "
              << rows[i][c].dump();
    }
  }
  static std::vector<std::pair<std::string, std::string>> same(const std::vector<std::string>& sqls) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& s : sqls) out.push_back({s, s});
    return out;
  }

  static TempDir* dir_;
  static Database* db_;
};
TempDir* OrderStatsSql::dir_ = nullptr;
Database* OrderStatsSql::db_ = nullptr;

TEST_F(OrderStatsSql, MedianOfEveryTypePerGroup) {
  check(same({
      "select g, median(i), median(b), median(d), median(m), median(s) from t group by g order by g",
      "select median(i), median(b), median(d), median(m), median(s) from t",
      "select g, count(*), median(i) from t group by g having median(i) > -100 order by g",
  }));
}

TEST_F(OrderStatsSql, QuantilesAtEveryEdge) {
  std::vector<std::string> sqls;
  for (const char* q : {"0", "0.1", "0.25", "0.5", "0.7", "0.999", "1"}) {
    sqls.push_back(std::string("select g, quantile_disc(i, ") + q + "), quantile_cont(i, " + q + "), quantile_disc(b, " +
                   q + "), quantile_cont(b, " + q + "), quantile_disc(d, " + q + "), quantile_cont(d, " + q +
                   "), quantile_disc(m, " + q + "), quantile_cont(m, " + q + "), quantile_disc(s, " + q +
                   "), quantile_disc(dt, " + q + ") from t group by g order by g");
  }
  sqls.push_back("select quantile_cont(i, 0.3::double), quantile_disc(b, 0.1 + 0.2) from t");
  check(same(sqls));
}

TEST_F(OrderStatsSql, PercentilesWithinGroup) {
  check(same({
      "select g, percentile_disc(0.3) within group (order by i), percentile_cont(0.75) within group (order by m), "
      "percentile_disc(0.5) within group (order by s) from t group by g order by g",
      "select percentile_cont(0.5) within group (order by d) from t where g < 5",
  }));
}

TEST_F(OrderStatsSql, NullsWhereDistinctAndEmptyInputs) {
  check(same({
      "select g, median(case when i % 3 = 0 then null else i end), quantile_disc(case when g = 11 then null else m "
      "end, 0.5) from t group by g order by g",
      "select g, median(i) from t where i > 0 and b < 0 group by g order by g",
      "select median(distinct i % 10), quantile_cont(distinct m, 0.5) from t",
      "select g, median(distinct d) from t group by g order by g",
      "select median(i), quantile_disc(s, 0.5), quantile_cont(m, 0.2) from t where i > 2147483647",
  }));
}

// DuckDB has no kth_smallest / kth_largest: the oracle is its sorted list of the
// non-NULL values, indexed from 1 (out of range is NULL).
TEST_F(OrderStatsSql, KthValues) {
  std::vector<std::pair<std::string, std::string>> q;
  for (int k : {1, 2, 5, 300, 100000}) {
    const std::string ks = std::to_string(k);
    q.push_back({"select g, kth_smallest(i, " + ks + "), kth_largest(b, " + ks + "), kth_smallest(m, " + ks +
                     "), kth_largest(s, " + ks + "), kth_smallest(dt, " + ks + ") from t group by g order by g",
                 "select g, list_sort(list(i))[" + ks + "], list_sort(list(b), 'DESC')[" + ks + "], list_sort(list(m))[" +
                     ks + "], list_sort(list(s), 'DESC')[" + ks + "], list_sort(list(dt))[" + ks +
                     "] from t group by g order by g"});
  }
  check(q);
}

// k given per group by an expression over other aggregates (evaluated like HAVING);
// NULL where it is below 1 or beyond the group, as DuckDB's list index gives.
TEST_F(OrderStatsSql, KthValuesWithKFromAggregates) {
  check({{"select g, kth_smallest(i, count(*) / 2), kth_largest(b, count(b) - 1), kth_smallest(m, count(*) / 3 + 1), "
          "kth_largest(s, min(g) + 1), count(*) from t group by g order by g",
          "select g, list_sort(list(i))[count(*) // 2], list_sort(list(b), 'DESC')[count(b) - 1], "
          "list_sort(list(m))[count(*) // 3 + 1], list_sort(list(s), 'DESC')[min(g) + 1], count(*) from t group by g "
          "order by g"},
         {"select kth_smallest(i, count(*) / 2), kth_largest(dt, count(*) / 10) from t where g < 3",
          "select list_sort(list(i))[count(*) // 2], list_sort(list(dt), 'DESC')[count(*) // 10] from t where g < 3"},
         {"select g, kth_smallest(i, count(*) / 2) from t group by g having kth_smallest(i, count(*) / 2) > 0 order by g",
          "select g, list_sort(list(i))[count(*) // 2] from t group by g having list_sort(list(i))[count(*) // 2] > 0 "
          "order by g"}});
}

// A list of quantiles (DuckDB's [q1, q2] form) as a whole SELECT item: one column per
// quantile, equal to writing each alone.
TEST_F(OrderStatsSql, QuantileListsGiveOneColumnEach) {
  check({{"select g, quantile_disc(i, [0.1, 0.5, 0.9]), quantile_cont(m, [0, 0.25, 1]), "
          "percentile_disc([0.25, 0.75]) within group (order by s) from t group by g order by g",
          "select g, quantile_disc(i, 0.1), quantile_disc(i, 0.5), quantile_disc(i, 0.9), quantile_cont(m, 0), "
          "quantile_cont(m, 0.25), quantile_cont(m, 1), percentile_disc(0.25) within group (order by s), "
          "percentile_disc(0.75) within group (order by s) from t group by g order by g"},
         {"select quantile_cont(d, [0.5, 0.999]) from t where g < 4",
          "select quantile_cont(d, 0.5), quantile_cont(d, 0.999) from t where g < 4"}});
  if (!db_) return;
  QueryResult r = db_->query("select quantile_disc(i, [0.5, 0.9]) as q, quantile_disc(b, [0.3]) from t",
                             QueryOptions{Backend::kCpu});
  ASSERT_EQ(r.column_count(), 3u);
  EXPECT_EQ(r.column_name(0), "q_1");
  EXPECT_EQ(r.column_name(1), "q_2");
  EXPECT_EQ(r.column_name(2), "quantile_disc(b, 0.3)");
}

TEST_F(OrderStatsSql, BadArgumentsAreOneLine) {
  if (!db_) GTEST_SKIP() << "python3 with duckdb is not available";
  for (const char* sql : {"select quantile_disc(i, 1.5) from t", "select quantile_cont(i, i) from t",
                          "select kth_smallest(i, 0) from t", "select median(dt) from t",
                          "select percentile_disc(0.5) from t", "select median(i) within group (order by i) from t",
                          "select quantile_cont(s, 0.5) from t", "select median(i, 2) from t",
                          "select kth_smallest(i, i) from t", "select kth_smallest(i, median(i)) from t",
                          "select kth_smallest(i, count(*) * 0.5) from t",
                          "select quantile_disc(i, [0.5]) + 1 from t", "select quantile_disc(i, []) from t",
                          "select [1, 2] from t", "select quantile_disc(i, [0.5, 2]) from t"}) {
    try {
      db_->query(sql, QueryOptions{Backend::kCpu});
      ADD_FAILURE() << "no error: " << sql;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

// A nullable VARCHAR column is read through the NULL-aware wrapper as run-time strings,
// which have no order-preserving key yet: DISTINCT or not, a clear one-line error (the
// DISTINCT form once ranked interned ids and crashed building the result).
TEST_F(OrderStatsSql, OrderStatisticsOverNullableStringsAreOneLineErrors) {
  if (!db_) GTEST_SKIP() << "python3 with duckdb is not available";
  db_->query("create table tn (s varchar)", QueryOptions{Backend::kCpu});
  db_->query("insert into tn values ('a'), ('b'), (NULL), ('a')", QueryOptions{Backend::kCpu});
  for (const char* sql : {"select kth_largest(distinct s, 1) from tn", "select kth_smallest(distinct s, 1) from tn",
                          "select quantile_disc(distinct s, 0.5) from tn", "select kth_largest(s, 1) from tn"}) {
    try {
      db_->query(sql, QueryOptions{Backend::kCpu});
      ADD_FAILURE() << "no error: " << sql;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  db_->query("drop table tn", QueryOptions{Backend::kCpu});
}

}  // namespace
}  // namespace raydb::test
