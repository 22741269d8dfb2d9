// Session 17 (issue 12): shapes whose host round trips were cut on the CUDA backend,
// forced onto CUDA and compared with the CPU backend (as multisets where unordered):
//   - DISTINCT (bound as a grouping: only the groups come back) over the key lists of
//     semi joins and key reductions: integers, dictionary codes, NULLs, several
//     columns, joins, small and empty results;
//   - tables over an outer key's domain built by key lookup (sql/unique_key_join.h): NOT
//     EXISTS with an inner <> outer condition, correlated COUNT, select-list scalars;
//   - `column IS NOT NULL` over a column without NULLs on the star kernels;
//   - snowflake tables that only filter, folded into their dimension's filters;
//   - [NOT] EXISTS over the outer row's own table as key sets;
//   - long key sets over wide spans as bitmaps on the star kernels.
// TPC-H at SF 0.1 (lineitem: 600,000 rows). Without a CUDA device every test is SKIPPED.
#include <gtest/gtest.h>

#include "exec/cuda/cuda_backend.h"
#include "support/result_rows.h"
#include "support/tpch_fixture.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                     \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

void expect_cuda_equals_cpu(const char* const* queries, size_t n) {
  OracleFixture& f = tpch_fixture("0.1", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  for (size_t i = 0; i < n; i++) {
    const char* sql = queries[i];
    QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    try {
      QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
      EXPECT_EQ(gpu.backend, "cuda") << sql;
      EXPECT_TRUE(same(cpu, gpu, sql));
    } catch (const Error& e) {
      ADD_FAILURE() << sql << " did not run on the CUDA backend: " << e.what();
    }
  }
}

TEST(GpuKeyLists, DistinctKeyListsEqualCpu) {
  REQUIRE_GPU();
  const char* const queries[] = {
      "SELECT DISTINCT l_orderkey FROM lineitem WHERE l_commitdate < l_receiptdate",
      "SELECT count(*), sum(k) FROM (SELECT DISTINCT l_orderkey AS k FROM lineitem WHERE l_commitdate < "
      "l_receiptdate) d",
      "SELECT DISTINCT l_suppkey, l_returnflag, l_linestatus FROM lineitem",
      "SELECT DISTINCT l_shipmode FROM lineitem",
      "SELECT DISTINCT CASE WHEN l_linenumber = 1 THEN NULL ELSE l_orderkey END FROM lineitem",
      "SELECT DISTINCT CASE WHEN l_linenumber > 2 THEN NULL ELSE l_suppkey END, l_linenumber FROM lineitem",
      "SELECT DISTINCT l_quantity * l_extendedprice FROM lineitem WHERE l_quantity > 45",
      "SELECT DISTINCT l_shipdate, l_returnflag FROM lineitem",
      "SELECT DISTINCT o_custkey FROM orders, lineitem WHERE o_orderkey = l_orderkey AND l_shipmode = 'AIR'",
      // a snowflake join (general path), as Q21's key reduction
      "SELECT DISTINCT l_orderkey FROM lineitem, supplier, nation WHERE l_suppkey = s_suppkey AND s_nationkey = "
      "n_nationkey AND n_name = 'FRANCE' AND l_receiptdate > l_commitdate",
      // small and empty results
      "SELECT DISTINCT l_orderkey FROM lineitem WHERE l_orderkey < 2000",
      "SELECT DISTINCT l_orderkey FROM lineitem WHERE l_orderkey < 0",
      // DISTINCT with ORDER BY and LIMIT
      "SELECT DISTINCT l_suppkey FROM lineitem ORDER BY l_suppkey DESC LIMIT 20",
      // semi and anti joins whose key lists are DISTINCT blocks (TPC-H Q4, Q22 shapes)
      "SELECT o_orderpriority, count(*) FROM orders WHERE EXISTS (SELECT * FROM lineitem WHERE l_orderkey = "
      "o_orderkey AND l_commitdate < l_receiptdate) GROUP BY o_orderpriority ORDER BY 1",
      "SELECT count(*) FROM orders WHERE o_orderkey NOT IN (SELECT l_orderkey FROM lineitem WHERE l_shipmode = "
      "'MAIL')",
  };
  expect_cuda_equals_cpu(queries, std::size(queries));
}

// `column IS NOT NULL` over columns without NULLs is dropped by the star planner: the
// star kernels must give the CPU's rows with it on the fact table and on a dimension,
// next to IS NULL (no row) and a semi join's key set.
TEST(GpuStarNotNull, NotNullConditionsOnTheStarKernelsEqualCpu) {
  REQUIRE_GPU();
  const char* const queries[] = {
      "SELECT l_returnflag, count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey IS NOT NULL AND l_shipdate < "
      "date '1995-01-01' GROUP BY l_returnflag ORDER BY 1",
      "SELECT p_brand, sum(l_extendedprice) FROM lineitem, part WHERE l_partkey = p_partkey AND p_partkey IS NOT NULL "
      "AND p_size < 5 AND l_suppkey IS NOT NULL GROUP BY p_brand ORDER BY 1",
      "SELECT count(*) FROM lineitem WHERE l_orderkey IS NULL",
      "SELECT o_orderpriority, count(*) FROM orders WHERE o_orderkey IS NOT NULL AND o_orderkey IN (SELECT l_orderkey "
      "FROM lineitem WHERE l_orderkey IS NOT NULL AND l_shipmode = 'AIR') GROUP BY 1 ORDER BY 1",
  };
  expect_cuda_equals_cpu(queries, std::size(queries));
}

// Snowflake tables that only filter their dimension fold into its filters on the star
// kernels when their passing keys are distinct; otherwise (keys that repeat, a table
// read by another join or by GROUP BY) the query keeps the general path. Either way the
// CPU's rows.
TEST(GpuStarChain, FilterOnlySnowflakeTablesEqualCpu) {
  REQUIRE_GPU();
  const char* const queries[] = {
      "SELECT l_returnflag, count(*), sum(l_quantity) FROM lineitem, supplier, nation WHERE l_suppkey = s_suppkey "
      "AND s_nationkey = n_nationkey AND n_name = 'FRANCE' GROUP BY l_returnflag ORDER BY 1",
      "SELECT count(*) FROM lineitem, supplier, nation WHERE l_suppkey = s_suppkey AND s_nationkey = n_nationkey "
      "AND n_name = 'ATLANTIS'",
      "SELECT l_linestatus, sum(l_extendedprice) FROM lineitem, supplier, nation WHERE l_suppkey = s_suppkey "
      "AND s_nationkey = n_nationkey AND n_regionkey IN (1, 3) AND s_acctbal > 0 GROUP BY 1 ORDER BY 1",
      // the passing keys repeat: partsupp rows per supplier
      "SELECT count(*), sum(l_quantity) FROM lineitem, supplier, partsupp WHERE l_suppkey = s_suppkey AND "
      "s_suppkey = ps_suppkey AND ps_availqty < 20",
      // two levels: nation is read by region's join
      "SELECT count(*) FROM lineitem, supplier, nation, region WHERE l_suppkey = s_suppkey AND s_nationkey = "
      "n_nationkey AND n_regionkey = r_regionkey AND r_name = 'ASIA'",
      // the snowflake table's column grouped
      "SELECT n_name, count(*) FROM lineitem, supplier, nation WHERE l_suppkey = s_suppkey AND s_nationkey = "
      "n_nationkey AND n_regionkey = 2 GROUP BY n_name ORDER BY 1",
      // a semi join's key list with the snowflake table (TPC-H Q21's key reduction)
      "SELECT count(*) FROM (SELECT DISTINCT l_orderkey FROM lineitem, orders, supplier, nation WHERE "
      "l_suppkey = s_suppkey AND o_orderkey = l_orderkey AND o_orderstatus = 'F' AND l_receiptdate > l_commitdate "
      "AND s_nationkey = n_nationkey AND n_name = 'SAUDI ARABIA') k",
  };
  expect_cuda_equals_cpu(queries, std::size(queries));
}

// [NOT] EXISTS over the outer row's own table (sql/binder_self_exists.cpp): key sets of
// the keys with two or more distinct values, fact filters on the star kernels.
TEST(GpuSelfExists, OwnRowsExistsEqualsCpu) {
  REQUIRE_GPU();
  const char* const queries[] = {
      "SELECT l1.l_returnflag, count(*) FROM lineitem l1 WHERE EXISTS (SELECT * FROM lineitem l2 WHERE "
      "l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey) GROUP BY 1 ORDER BY 1",
      "SELECT l1.l_linestatus, count(*) FROM lineitem l1 WHERE l1.l_shipmode = 'MAIL' AND NOT EXISTS (SELECT * "
      "FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_shipmode = "
      "'MAIL') GROUP BY 1 ORDER BY 1",
      "SELECT o_orderpriority, count(*) FROM lineitem l1, orders WHERE o_orderkey = l1.l_orderkey AND "
      "l1.l_quantity > 30 AND EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND "
      "l2.l_partkey <> l1.l_partkey AND l2.l_quantity > 30) GROUP BY 1 ORDER BY 1",
      "SELECT o_orderstatus, count(*) FROM lineitem l1, orders WHERE o_orderkey = l1.l_orderkey AND "
      "l1.l_shipmode = 'AIR' AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND "
      "l3.l_suppkey <> l1.l_suppkey AND l3.l_shipmode = 'AIR') GROUP BY 1 ORDER BY 1",
  };
  expect_cuda_equals_cpu(queries, std::size(queries));
}

// Long key sets over a wide stored span as bitmaps on the star kernels (range_bitmap.h:
// spans over 2^20 values with at most 512 bits per range; at SF 0.1 l_orderkey spans
// only 600,000, so l_extendedprice's cents, about 10 M wide, carry the sets).
TEST(GpuStarSets, WideKeySetsEqualCpu) {
  REQUIRE_GPU();
  const char* const queries[] = {
      "SELECT l_returnflag, count(*), sum(l_quantity) FROM lineitem WHERE l_extendedprice IN (SELECT "
      "l_extendedprice FROM lineitem WHERE l_quantity <= 3) GROUP BY 1 ORDER BY 1",
      "SELECT l_linestatus, count(*) FROM lineitem WHERE l_extendedprice NOT IN (SELECT l_extendedprice FROM "
      "lineitem WHERE l_quantity <= 3) GROUP BY 1 ORDER BY 1",
      "SELECT count(*) FROM lineitem WHERE l_extendedprice IN (SELECT l_extendedprice FROM lineitem WHERE "
      "l_quantity = 1) AND l_shipdate < date '1995-01-01'",
  };
  expect_cuda_equals_cpu(queries, std::size(queries));
}

TEST(GpuDomainTables, DomainTablesByKeyLookupEqualCpu) {
  REQUIRE_GPU();
  const char* const queries[] = {
      // NOT EXISTS with <> (TPC-H Q21's shape), with and without the key reduction
      "SELECT count(*) FROM lineitem l1 WHERE l1.l_receiptdate > l1.l_commitdate AND NOT EXISTS (SELECT * FROM "
      "lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > "
      "l3.l_commitdate)",
      "SELECT l_suppkey % 10, count(*) FROM lineitem l1, orders WHERE o_orderkey = l1.l_orderkey AND "
      "o_orderstatus = 'F' AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND "
      "l3.l_suppkey <> l1.l_suppkey AND l3.l_shipmode = 'RAIL') GROUP BY 1 ORDER BY 1",
      // correlated COUNT: 0 for keys without inner rows
      "SELECT count(*) FROM orders WHERE 2 < (SELECT count(*) FROM lineitem WHERE l_orderkey = o_orderkey AND "
      "l_returnflag = 'R')",
      "SELECT count(*) FROM orders WHERE o_orderdate < date '1993-01-01' AND 0 = (SELECT count(*) FROM lineitem "
      "WHERE l_orderkey = o_orderkey AND l_shipmode = 'TRUCK')",
      // scalar subqueries in the select list: NULL where no inner rows
      "SELECT o_orderkey, (SELECT max(l_shipdate) FROM lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 40) "
      "FROM orders WHERE o_orderdate < date '1992-03-01'",
      "SELECT o_orderkey, (SELECT sum(l_extendedprice) FROM lineitem WHERE l_orderkey = o_orderkey AND l_tax > "
      "0.07) FROM orders WHERE o_orderdate < date '1992-03-01'",
  };
  expect_cuda_equals_cpu(queries, std::size(queries));
}

}  // namespace
}  // namespace raydb::test
