// The 13 SSB queries at SF 0.01 on the CPU backend, compared with SQLite on the same
// generated data.
#include <gtest/gtest.h>

#include "support/fixtures.h"

namespace raydb::test {
namespace {

class SsbQueries : public ::testing::TestWithParam<std::string> {};

TEST_P(SsbQueries, MatchesSqliteAtSf001) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  std::string sql = read_file(source_dir() + "/ssb/queries/" + GetParam() + ".sql");
  ASSERT_FALSE(sql.empty()) << "missing query file " << GetParam();
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, sql, QueryOptions{Backend::kCpu}));
}

TEST(SsbData, IsNotEmpty) {
  // Guards against vacuous passes: the queries above must see real data.
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  Rows r = f.oracle->query_raw(
      "select (select count(*) from lineorder), (select count(*) from customer), (select count(*) from supplier), "
      "(select count(*) from part), (select count(*) from date)");
  EXPECT_GT(r.rows[0][0].i, 50000);
  EXPECT_GT(r.rows[0][1].i, 0);
  EXPECT_GT(r.rows[0][2].i, 0);
  EXPECT_GT(r.rows[0][3].i, 0);
  EXPECT_EQ(r.rows[0][4].i, 2556);
  // The first queries select something at this scale.
  Rows q = f.oracle->query_raw(read_file(source_dir() + "/ssb/queries/q1.1.sql"));
  ASSERT_EQ(q.rows.size(), 1u);
  EXPECT_NE(q.rows[0][0].kind, Cell::Kind::kNull);
}

INSTANTIATE_TEST_SUITE_P(Ssb, SsbQueries,
                         ::testing::Values("q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3",
                                           "q3.4", "q4.1", "q4.2", "q4.3"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace raydb::test
