// LIMIT without ORDER BY or aggregation reads only the prefix of the scan it keeps
// (plan/logical/limit_prefix.h, exec/cpu/prefix_limit.h): under a memory limit far
// below what the table's projected rows take, `select * from t limit 3` still
// answers, and EXPLAIN ANALYZE shows a few morsels scanned; the rows are the ones
// SQLite returns for the same rows in the same order. The CUDA backend declines the
// shape (the CPU reads only the prefix), so `auto` runs it on the CPU.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "raydb/raydb.h"
#include "storage/persist/database_directory.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

constexpr uint64_t kRows = 600000;

class LimitPushdownTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    db_ = Database::open_or_create(tmp_->file("db")).release();
    // a: the row number; b: a scrambled value, so filters keep scattered rows.
    std::vector<int64_t> a(kRows), b(kRows);
    std::iota(a.begin(), a.end(), 0);
    for (uint64_t i = 0; i < kRows; i++) b[i] = int64_t((i * 2654435761u) % 1000003);
    std::vector<ColumnInput> cols(2);
    cols[0] = {"a", Type::bigint(), kRows, a.data()};
    cols[1] = {"b", Type::bigint(), kRows, b.data()};
    db_->create_table("t", cols, false);
    std::vector<int64_t> k(100);
    std::iota(k.begin(), k.end(), 0);
    ColumnInput uk{"k", Type::bigint(), k.size(), k.data()};
    db_->create_table("u", {uk}, false);
    oracle_ = new SqliteOracle();
    oracle_->load_table(*db_->directory().table("t"));
    oracle_->load_table(*db_->directory().table("u"));
  }
  static void TearDownTestSuite() {
    delete oracle_;
    delete db_;
    delete tmp_;
  }
  // The CPU backend on two threads under a 4 MiB memory budget; the projection of
  // all of t's rows needs 600,000 x 16 bytes, three times over.
  static QueryOptions tight(Backend b = Backend::kCpu) {
    QueryOptions o;
    o.backend = b;
    o.threads = 2;
    o.settings.set("cpu_memory_limit", "4M");
    return o;
  }
  static TempDir* tmp_;
  static Database* db_;
  static SqliteOracle* oracle_;
};
TempDir* LimitPushdownTest::tmp_ = nullptr;
Database* LimitPushdownTest::db_ = nullptr;
SqliteOracle* LimitPushdownTest::oracle_ = nullptr;

::testing::AssertionResult same_rows(const Rows& expected, const Rows& actual, const std::string& sql) {
  if (expected.rows.size() != actual.rows.size())
    return ::testing::AssertionFailure() << sql << ": " << actual.rows.size() << " rows, SQLite " << expected.rows.size();
  for (size_t i = 0; i < expected.rows.size(); i++)
    for (size_t c = 0; c < expected.rows[i].size(); c++)
      if (!cells_equal(expected.rows[i][c], actual.rows[i][c]))
        return ::testing::AssertionFailure() << sql << ": row " << i << " column " << c << " is "
                                             << actual.rows[i][c].to_string() << ", SQLite "
                                             << expected.rows[i][c].to_string();
  return ::testing::AssertionSuccess();
}

TEST_F(LimitPushdownTest, SelectStarLimitFitsAMemoryLimitBelowTheTable) {
  // Without the prefix the whole projection is charged: out of memory.
  try {
    db_->query("select * from t where b >= 0", tight());
    ADD_FAILURE() << "the whole projection fit 4 MiB: the test no longer shows the limit";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfMemory) << e.what();
  }
  for (const std::string sql : {"select * from t limit 3", "select b, a from t limit 5 offset 40000",
                                "select a from t where b % 1000 = 7 limit 4", "select * from t limit 0",
                                "select t.a, u.k from t, u where t.b % 100 = u.k limit 6"}) {
    QueryResult r = db_->query(sql, tight());
    EXPECT_EQ(r.backend, "cpu");
    // SQLite scans in insertion order, as raydb's scan does.
    EXPECT_TRUE(same_rows(oracle_->query_raw(sql), canonical_rows(r), sql));
  }
}

TEST_F(LimitPushdownTest, ExplainAnalyzeShowsAPrefixScanned) {
  QueryResult r = db_->query("explain analyze select * from t limit 3", tight());
  const std::string& text = r.explain;
  const size_t at = text.find("scan t: ");
  ASSERT_NE(at, std::string::npos) << text;
  const uint64_t scanned = std::stoull(text.substr(at + 8));
  // One morsel per thread at most (8 batches of 2,048 rows), not 600,000.
  EXPECT_LE(scanned, 2u * 8 * 2048) << text;
  EXPECT_GT(scanned, 0u) << text;
}

TEST_F(LimitPushdownTest, OrderByAndAggregatesStillReadEverything) {
  const std::string sql = "select a from t order by b desc limit 2";
  EXPECT_TRUE(same_rows(oracle_->query_raw(sql), canonical_rows(db_->query(sql, {Backend::kCpu})), sql));
  const std::string agg = "select count(*), sum(b) from t limit 1";
  EXPECT_TRUE(same_rows(oracle_->query_raw(agg), canonical_rows(db_->query(agg, {Backend::kCpu})), agg));
}

TEST_F(LimitPushdownTest, AutoRunsItOnTheCpuAndForcedCudaDeclinesInOneLine) {
  EXPECT_EQ(db_->query("select * from t limit 3").backend, "cpu");
  try {
    db_->query("select * from t limit 3", {Backend::kCuda});
    ADD_FAILURE() << "forced cuda ran a prefix LIMIT";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace raydb::test
