// Issue 14, resource guard: the CPU executor's memory limit (setting cpu_memory_limit).
// A cross join's result rows, a GROUP BY with many groups, a join's duplicate-key
// matches, an ORDER BY's sort or a DISTINCT past the limit end in a one-line "out of
// memory" error; under a limit they fit, the answers are exact (known from the
// generated data).
#include <gtest/gtest.h>

#include <string>

#include "support/test_support.h"

namespace raydb::test {
namespace {

class MemoryLimitTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    // 200,000 rows, i = 1000 * row (a key range too wide for direct aggregation), g = row % 7.
    std::string csv = "i,g\n";
    for (int r = 0; r < 200000; r++) csv += std::to_string(r * 1000) + "," + std::to_string(r % 7) + "\n";
    write_file(tmp_->file("t.csv"), csv);
    CommandResult r = run_raydb(cli::load_csv(db(), "t", "i BIGINT, g INTEGER", tmp_->file("t.csv")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { delete tmp_; }
  static std::string db() { return tmp_->file("db"); }
  CommandResult query(const std::string& sql, const std::string& limit) {
    return run_raydb(cli::query(db(), sql, "--format csv --backend cpu" + (limit.empty() ? "" : " --set cpu_memory_limit=" + limit)));
  }
  static TempDir* tmp_;
};
TempDir* MemoryLimitTest::tmp_ = nullptr;

::testing::AssertionResult out_of_memory(const CommandResult& r, const std::string& what,
                                         const std::string& limit = "4.0 MiB") {
  auto lines = split_lines(r.err);
  if (r.exit_code != 1 || lines.size() != 1 ||
      lines[0].rfind("error: out of memory: the query needs more than cpu_memory_limit (" + limit + ") for " + what, 0) != 0)
    return ::testing::AssertionFailure() << "exit " << r.exit_code << " stderr [" << r.err << "]";
  return ::testing::AssertionSuccess();
}

TEST_F(MemoryLimitTest, GroupByPastTheLimitIsOutOfMemory) {
  const std::string sql = "select i, count(*) from t group by i order by i desc limit 2";
  EXPECT_TRUE(out_of_memory(query(sql, "4M"), "GROUP BY groups"));
  CommandResult r = query(sql, "");  // default: 80% of physical memory
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "i,count(*)\n199999000,1\n199998000,1\n");
  r = query(sql, "64M");
  EXPECT_EQ(r.out, "i,count(*)\n199999000,1\n199998000,1\n") << r.err;
  // Few groups stay far below any limit.
  r = query("select g, count(*) from t group by g order by g limit 2", "4M");
  EXPECT_EQ(r.out, "g,count(*)\n0,28572\n1,28572\n") << r.err;
}

TEST_F(MemoryLimitTest, CrossJoinPastTheLimitIsOutOfMemory) {
  // 200,000 x 200,000 rows.
  EXPECT_TRUE(out_of_memory(query("select a.i, b.i from t a, t b", "4M"), "a cross join's rows"));
  // Result rows of a join that expands less: 40 x 200,000 rows of two BIGINTs (128 MB).
  EXPECT_TRUE(out_of_memory(query("select a.i, b.i from t a, t b where a.i < 40000 and b.g >= 0", "4M"), ""));
  // Aggregates stream: only a batch's expansion is held.
  CommandResult r = query("select count(*), sum(b.i) from t a, t b where a.i < 40000", "256M");
  EXPECT_EQ(r.out, "count(*),sum(b.i)\n8000000,799996000000000\n") << r.err;
}

TEST_F(MemoryLimitTest, DuplicateKeyJoinPastTheLimitIsOutOfMemory) {
  // g has 7 values: 200,000 x 28,571 matches; a batch of probe rows expands to about
  // 60 million before the limit stops it (it used to allocate them all, per thread).
  EXPECT_TRUE(out_of_memory(query("select count(*) from t a join t b on a.g = b.g", "4M"),
                            "a join's duplicate-key matches"));
  EXPECT_TRUE(out_of_memory(query("select a.i, b.i from t a join t b on a.g = b.g where a.i < 7000000", "4M"),
                            "a join's duplicate-key matches"));
  // Under the limit the duplicates expand: 700 rows of a (100 per g) times the rows of
  // b with their g; the g's 200,000 rows are 28,572 each for g < 3 and 28,571 for the
  // rest. One batch of a's 700 rows expands to 20 million matches (320 MB of row ids),
  // past 64 MiB but within 512 MiB.
  EXPECT_TRUE(out_of_memory(query("select count(*) from t a join t b on a.g = b.g where a.i < 700000", "64M"),
                            "a join's duplicate-key matches", "64.0 MiB"));
  CommandResult r = query("select count(*) from t a join t b on a.g = b.g where a.i < 700000", "512M");
  EXPECT_EQ(r.out, "count(*)\n20000000\n") << r.err;
}

TEST_F(MemoryLimitTest, OrderBySortPastTheLimitIsOutOfMemory) {
  // 200,000 BIGINT result rows are charged three times (chunks, merged, finisher's copy)
  // and fit in 6 MiB; the sort's permutation (8 bytes a row) does not.
  const std::string sql = "select i from t order by i desc limit 3";
  EXPECT_TRUE(out_of_memory(query(sql, "6M"), "the ORDER BY's sort", "6.0 MiB"));
  CommandResult r = query(sql, "8M");
  EXPECT_EQ(r.out, "i\n199999000\n199998000\n199997000\n") << r.err;
  // DISTINCT's table is charged too (a DOUBLE column keeps DISTINCT; other columns
  // without aggregates run it as a GROUP BY, charged as one).
  EXPECT_TRUE(out_of_memory(query("select distinct cast(i as double) from t", "6M"), "DISTINCT rows", "6.0 MiB"));
  EXPECT_TRUE(out_of_memory(query("select distinct i from t", "4M"), "GROUP BY groups", "4.0 MiB"));
  r = query("select distinct g from t order by g desc limit 2", "16M");
  EXPECT_EQ(r.out, "g\n6\n5\n") << r.err;
}

TEST_F(MemoryLimitTest, BadValuesAreOneLineErrors) {
  CommandResult r = query("select 1", "lots");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: setting cpu_memory_limit 'lots' is not a size\n");
}

}  // namespace
}  // namespace raydb::test
