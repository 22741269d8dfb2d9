// EXPLAIN ANALYZE (issue 10, "selectivity for free"): the query runs, and the text
// reports each operator's actual rows; the counts must equal what COUNT(*) queries
// of the same filters say.
#include <gtest/gtest.h>

#include <regex>

#include "support/fixtures.h"

namespace raydb::test {
namespace {

int64_t count_of(Database& db, const std::string& sql) {
  QueryResult r = db.query(sql, QueryOptions{Backend::kCpu});
  return r.get(0, 0).as_int();
}

// The number after `prefix` in the text (-1 when absent).
int64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stoll(m[1].str());
}

TEST(ExplainAnalyze, CpuReportsRowsPerOperator) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string where = "lo_quantity < 10 or lo_discount > 8";
  QueryResult r = f.db->query("explain analyze select d_year, count(*) from lineorder, date where lo_orderdate = "
                              "d_datekey and d_year >= 1995 and (" + where + ") group by d_year",
                              QueryOptions{Backend::kCpu});
  const std::string& t = r.explain;
  ASSERT_EQ(r.row_count(), 1u);
  EXPECT_NE(t.find("actual (cpu)"), std::string::npos) << t;
  EXPECT_EQ(number_after(t, "scan lineorder: (\\d+) rows"), count_of(*f.db, "select count(*) from lineorder")) << t;
  EXPECT_EQ(number_after(t, "(\\d+) passed filters"),
            count_of(*f.db, "select count(*) from lineorder where " + where)) << t;
  EXPECT_EQ(number_after(t, "join date: (\\d+) build rows"),
            count_of(*f.db, "select count(*) from date where d_year >= 1995")) << t;
  EXPECT_EQ(number_after(t, "-> (\\d+) rows"),
            count_of(*f.db, "select count(*) from lineorder, date where lo_orderdate = d_datekey and d_year >= 1995 "
                            "and (" + where + ")")) << t;
  EXPECT_EQ(number_after(t, "-> (\\d+) groups"), 4) << t;  // 1995..1998
}

TEST(ExplainAnalyze, ParsesOnlyAfterExplain) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  EXPECT_THROW(f.db->query("analyze select 1", QueryOptions{Backend::kCpu}), Error);
  QueryResult r = f.db->query("explain select count(*) from date", QueryOptions{Backend::kCpu});
  EXPECT_EQ(r.explain.find("actual"), std::string::npos) << r.explain;
}

}  // namespace
}  // namespace raydb::test
