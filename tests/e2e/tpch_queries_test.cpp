// The 22 TPC-H queries (tpch/queries) at SF 0.01 on the CPU backend, compared with
// SQLite on the same generated data (query text translated for SQLite, see
// support/tpch_fixture.h). raydb runs all 22, so a refusal fails like any other error.
#include <gtest/gtest.h>

#include "support/tpch_fixture.h"
#include "support/tpch_query_case.h"

namespace raydb::test {
namespace {

class TpchQueries : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchQueries, MatchesSqliteAtSf001) { run_tpch_query_case("0.01", GetParam()); }

TEST(TpchData, IsNotEmpty) {
  // Guards against vacuous passes: the queries above must see real data.
  OracleFixture& f = tpch_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  Rows r = f.oracle->query_raw(
      "select (select count(*) from lineitem), (select count(*) from orders), (select count(*) from partsupp), "
      "(select count(*) from nation)");
  EXPECT_GT(r.rows[0][0].i, 50000);
  EXPECT_EQ(r.rows[0][1].i, 15000);
  EXPECT_EQ(r.rows[0][2].i, 8000);
  EXPECT_EQ(r.rows[0][3].i, 25);
}

TEST(TpchData, SqliteRunsEveryTranslatedQuery) {
  // The oracle's side of the 22 comparisons, ready before raydb runs them: every
  // translated text must run on SQLite (a translation slip fails here, not later).
  OracleFixture& f = tpch_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  for (const std::string& name : tpch_query_names()) {
    const std::string sql = read_file(source_dir() + "/tpch/queries/" + name + ".sql");
    try {
      f.oracle->query_raw(tpch_sqlite_text(name, sql));
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << ": " << e.what() << "\n" << tpch_sqlite_text(name, sql);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tpch, TpchQueries, ::testing::ValuesIn(tpch_query_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace raydb::test
