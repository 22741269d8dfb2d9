// The 13 SSB queries at SF 1 on the CPU backend, compared with SQLite (label `slow`:
// `ctest --test-dir build -L slow`). One test process generates (or, with
// RAYDB_SSB_SF1_DB=<dir>, reuses) the data and runs all queries, so the minutes of
// generation and SQLite loading are paid once.
#include <gtest/gtest.h>

#include "support/fixtures.h"

namespace raydb::test {
namespace {

TEST(SsbSf1, AllQueriesMatchSqlite) {
  OracleFixture& f = ssb_fixture("1");
  ASSERT_TRUE(f.db) << f.error;
  Rows n = f.oracle->query_raw("select count(*) from lineorder");
  EXPECT_GT(n.rows[0][0].i, 5900000);
  for (const char* q : {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1",
                        "q4.2", "q4.3"}) {
    SCOPED_TRACE(q);
    std::string sql = read_file(source_dir() + "/ssb/queries/" + q + ".sql");
    ASSERT_FALSE(sql.empty());
    EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, sql, QueryOptions{Backend::kCpu})) << q;
  }
}

}  // namespace
}  // namespace raydb::test
