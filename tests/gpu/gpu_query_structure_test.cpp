// Query structure (WITH, derived tables, subqueries, set operations, decorrelated
// subqueries) on the CUDA backend: every inner block runs on the backend the driver
// picks, so `auto` must equal the CPU row for row (as a multiset where unordered), and
// a forced `cuda` must either equal it or fail with the backend's one line. Without a
// CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include "exec/cuda/cuda_backend.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                     \
  if (exec::cuda::device_count() == 0) \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

const char* const kQueries[] = {
    "WITH asia AS (SELECT c_custkey FROM customer WHERE c_region = 'ASIA') "
    "SELECT count(*), sum(lo_revenue) FROM lineorder WHERE lo_custkey IN (SELECT c_custkey FROM asia)",
    "WITH y AS (SELECT d_datekey, d_year FROM date WHERE d_year >= 1996) "
    "SELECT y.d_year, sum(lo_revenue) FROM lineorder JOIN y ON lo_orderdate = y.d_datekey GROUP BY y.d_year "
    "ORDER BY y.d_year",
    "SELECT n, count(*) FROM (SELECT lo_custkey, count(*) AS n FROM lineorder GROUP BY lo_custkey) d GROUP BY n "
    "ORDER BY n",
    // a derived table without grouping, with a column list
    "SELECT yr, sum(rev), count(*) FROM (SELECT d_year AS yr, lo_revenue AS rev FROM lineorder, date "
    "WHERE lo_orderdate = d_datekey AND d_year > 1995) x (yr) WHERE rev > 1000 GROUP BY yr ORDER BY yr",
    "SELECT count(*) FROM lineorder WHERE lo_quantity > (SELECT avg(lo_quantity) FROM lineorder)",
    "SELECT count(*) FROM part p WHERE NOT EXISTS (SELECT * FROM lineorder WHERE lo_partkey = p.p_partkey)",
    "SELECT count(*) FROM supplier s WHERE EXISTS (SELECT * FROM lineorder WHERE lo_suppkey = s.s_suppkey "
    "AND lo_discount = 10)",
    "SELECT sum(lo_revenue) FROM lineorder l WHERE lo_quantity > (SELECT avg(lo_quantity) FROM lineorder m "
    "WHERE m.lo_partkey = l.lo_partkey)",
    "SELECT c_city FROM customer WHERE c_nation = 'CHINA' UNION SELECT s_city FROM supplier "
    "WHERE s_nation = 'CHINA' ORDER BY 1",
    "SELECT c_nation FROM customer INTERSECT SELECT s_nation FROM supplier EXCEPT SELECT 'PERU' ORDER BY 1",
    "WITH n AS (SELECT CASE WHEN lo_discount > 5 THEN NULL ELSE lo_discount END AS d, lo_revenue FROM lineorder "
    "WHERE lo_orderdate < 19920301) SELECT d, count(*), sum(lo_revenue) FROM n GROUP BY d ORDER BY d",
};

TEST(GpuQueryStructure, AutoEqualsCpuAndCudaRunsOrSaysWhy) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  for (const char* sql : kQueries) {
    QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    QueryResult any = f.db->query(sql, QueryOptions{Backend::kAuto});
    EXPECT_TRUE(same(cpu, any, sql));
    try {
      QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
      EXPECT_TRUE(same(cpu, gpu, sql));
    } catch (const Error& e) {
      const std::string why = e.what();
      EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << why;
      EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    }
  }
}

// Window functions run on the CPU: `auto` runs the block below them wherever it can
// and must equal the CPU; a forced `cuda` fails with one line naming them.
TEST(GpuQueryStructure, WindowsFallBackToTheCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* const windows[] = {
      "SELECT lo_orderkey, lo_linenumber, sum(lo_revenue) OVER (PARTITION BY lo_orderkey ORDER BY lo_linenumber), "
      "rank() OVER (ORDER BY lo_quantity) FROM lineorder WHERE lo_orderdate < 19920201",
      "SELECT d_year, sum(lo_revenue), rank() OVER (ORDER BY sum(lo_revenue) DESC) FROM lineorder, date "
      "WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year",
  };
  for (const char* sql : windows) {
    QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    QueryResult any = f.db->query(sql, QueryOptions{Backend::kAuto});
    EXPECT_TRUE(same(cpu, any, sql));
    try {
      f.db->query(sql, QueryOptions{Backend::kCuda});
      ADD_FAILURE() << "forced cuda ran window functions: " << sql;
    } catch (const Error& e) {
      const std::string why = e.what();
      EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << why;
      EXPECT_NE(why.find("window functions"), std::string::npos) << why;
      EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    }
  }
}

// Semi and anti joins as key sets (a subquery's 64 or more keys held as one array):
// forced onto CUDA they must run and equal the CPU, with NULLs on either side (a NULL
// in the set makes "not found" NULL, so NOT IN is never true; NULL x is NULL), the
// correlated forms, and the set's test in a select list.
TEST(GpuQueryStructure, KeySetSemiAndAntiJoinsEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* const queries[] = {
      "SELECT count(*), sum(lo_revenue) FROM lineorder WHERE lo_custkey IN (SELECT c_custkey FROM customer "
      "WHERE c_region <> 'ASIA')",
      "SELECT count(*) FROM lineorder WHERE lo_custkey NOT IN (SELECT c_custkey FROM customer WHERE c_region <> 'ASIA')",
      "SELECT count(*) FROM lineorder WHERE lo_custkey IN (SELECT CASE WHEN c_custkey % 50 = 0 THEN NULL ELSE "
      "c_custkey END FROM customer)",
      "SELECT count(*) FROM lineorder WHERE lo_custkey NOT IN (SELECT CASE WHEN c_custkey % 50 = 0 THEN NULL ELSE "
      "c_custkey END FROM customer)",
      "SELECT count(*) FROM lineorder WHERE CASE WHEN lo_discount > 8 THEN NULL ELSE lo_custkey END IN "
      "(SELECT c_custkey FROM customer WHERE c_region <> 'ASIA')",
      "SELECT lo_discount, count(*) FROM lineorder WHERE (CASE WHEN lo_discount > 8 THEN NULL ELSE lo_custkey END "
      "NOT IN (SELECT c_custkey FROM customer WHERE c_region <> 'ASIA')) IS NULL GROUP BY lo_discount ORDER BY 1",
      "SELECT lo_custkey IN (SELECT c_custkey FROM customer WHERE c_region <> 'ASIA') AS found, count(*) "
      "FROM lineorder GROUP BY 1 ORDER BY 1",
      "SELECT count(*) FROM customer c WHERE NOT EXISTS (SELECT * FROM lineorder WHERE lo_custkey = c.c_custkey "
      "AND lo_discount = 3)",
      "SELECT count(*) FROM part p WHERE EXISTS (SELECT * FROM lineorder WHERE lo_partkey = p.p_partkey "
      "AND lo_quantity < 10)",
      "SELECT sum(lo_revenue) FROM lineorder WHERE lo_orderdate IN (SELECT d_datekey FROM date WHERE d_year = 1995) "
      "AND lo_suppkey NOT IN (SELECT s_suppkey FROM supplier WHERE s_region = 'EUROPE')",
  };
  for (const char* sql : queries) {
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

}  // namespace
}  // namespace raydb::test
