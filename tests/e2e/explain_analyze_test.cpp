// EXPLAIN ANALYZE (issue 10, "selectivity for free"): the query runs, and the text
// reports each operator's actual rows; the counts must equal what COUNT(*) queries
// of the same filters say.
#include <gtest/gtest.h>

#include <regex>

#include "support/fixtures.h"
#include "support/tpch_fixture.h"

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

// TPC-H Q5's join build sides as the semi-join reductions leave them: supplier keeps
// the ASIA suppliers (nation, region), customer the customers of their nations (one
// key column of supplier's (l_suppkey, c_nationkey) step), orders those customers'
// orders of 1994.
TEST(ExplainAnalyze, Q5ColumnReductionOfCustomer) {
  OracleFixture& f = tpch_fixture("0.01", false);
  ASSERT_TRUE(f.db) << f.error;
  QueryResult r = f.db->query(
      "explain analyze select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue from customer, orders, "
      "lineitem, supplier, nation, region where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = "
      "s_suppkey and c_nationkey = s_nationkey and s_nationkey = n_nationkey and n_regionkey = r_regionkey and "
      "r_name = 'ASIA' and o_orderdate >= date '1994-01-01' and o_orderdate < date '1995-01-01' group by n_name",
      QueryOptions{Backend::kCpu});
  const std::string& t = r.explain;
  const std::string asia_supplier_nations =
      "(select s_nationkey from supplier, nation, region where s_nationkey = n_nationkey and n_regionkey = "
      "r_regionkey and r_name = 'ASIA')";
  EXPECT_EQ(number_after(t, "join customer: (\\d+) build rows"),
            count_of(*f.db, "select count(*) from customer where c_nationkey in " + asia_supplier_nations)) << t;
  EXPECT_EQ(number_after(t, "join orders: (\\d+) build rows"),
            count_of(*f.db, "select count(*) from orders, customer where o_custkey = c_custkey and o_orderdate >= "
                            "date '1994-01-01' and o_orderdate < date '1995-01-01' and c_nationkey in " +
                                asia_supplier_nations)) << t;
}

}  // namespace
}  // namespace raydb::test
