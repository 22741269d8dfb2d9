// Window functions over TPC-H SF 0.01 (the generated database the TPC-H query tests
// share) compared with SQLite's window functions: many partitions (the parallel
// path), windows over GROUP BY, strings, decimals, frames, top-k per group.
#include <gtest/gtest.h>

#include "support/tpch_fixture.h"

namespace raydb::test {
namespace {

const char* const kQueries[] = {
    // rank of each customer's order total within its nation (windows over GROUP BY)
    "select c_nationkey, c_custkey, sum(o_totalprice) as t, "
    "rank() over (partition by c_nationkey order by sum(o_totalprice) desc) as r "
    "from customer, orders where c_custkey = o_custkey group by c_nationkey, c_custkey",
    // running sums, lag and reverse numbering within every order (15000 partitions)
    "select l_orderkey, l_linenumber, sum(l_quantity) over (partition by l_orderkey order by l_linenumber), "
    "lag(l_extendedprice) over (partition by l_orderkey order by l_linenumber), "
    "row_number() over (partition by l_orderkey order by l_linenumber desc) from lineitem",
    // sliding frames over one big partition
    "select o_orderkey, avg(o_totalprice) over (order by o_orderkey rows between 3 preceding and 3 following), "
    "min(o_totalprice) over (order by o_orderkey rows between 10 preceding and current row), "
    "max(o_orderkey) over (partition by o_custkey), count(*) over (partition by o_orderpriority) from orders",
    "select p_partkey, ntile(10) over (order by p_retailprice, p_partkey), "
    "percent_rank() over (partition by p_brand order by p_size), "
    "cume_dist() over (partition by p_brand order by p_size) from part",
    // top 3 suppliers by balance per nation
    "select * from (select s_nationkey, s_suppkey, s_acctbal, "
    "row_number() over (partition by s_nationkey order by s_acctbal desc, s_suppkey) as rn from supplier) t "
    "where rn <= 3",
    "select n_regionkey, n_name, first_value(n_name) over (partition by n_regionkey order by n_name), "
    "last_value(n_name) over (partition by n_regionkey order by n_name rows between unbounded preceding and "
    "unbounded following), count(*) over (partition by n_regionkey), lead(n_name, 2, '-') over (order by n_name) "
    "from nation",
    // the lines of the longest orders, ordered output with LIMIT
    "select l_orderkey, l_linenumber, count(*) over (partition by l_orderkey) as n, "
    "sum(l_extendedprice) over (partition by l_orderkey) from lineitem "
    "order by n desc, l_orderkey desc, l_linenumber limit 20",
};

class WindowTpch : public ::testing::TestWithParam<int> {};

TEST_P(WindowTpch, MatchesSqliteAtSf001) {
  OracleFixture& f = tpch_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  ASSERT_TRUE(f.oracle) << f.error;
  EXPECT_TRUE(matches_sqlite(*f.db, *f.oracle, kQueries[GetParam()], QueryOptions{Backend::kCpu}));
}

INSTANTIATE_TEST_SUITE_P(Tpch, WindowTpch, ::testing::Range(0, int(std::size(kQueries))));

}  // namespace
}  // namespace raydb::test
