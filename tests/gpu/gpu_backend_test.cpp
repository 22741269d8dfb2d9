// The CUDA backend against the CPU backend: identical results, row for row where
// the query orders them (as a multiset otherwise), on SSB and on the ad-hoc query
// lists; plus the edge cases of the issue (unsupported shapes give one clean line,
// out of memory, empty tables, everything filtered out, more than 2^20 groups).
// Without a CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>

#include "exec/cuda/cuda_backend.h"
#include "support/adhoc_cases.h"
#include "support/predicate_cases.h"
#include "support/cuda_coverage.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

bool have_gpu() { return exec::cuda::device_count() > 0; }

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

// Runs `sql` on both backends. Returns false (and sets `why`) when the CUDA
// backend rejects the shape with its one-line message.
bool run_both(Database& db, const std::string& sql, std::string& why) {
  QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  try {
    QueryResult gpu = db.query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_GE(gpu.device_ms, 0);
    EXPECT_TRUE(same(cpu, gpu, sql));
    return true;
  } catch (const Error& e) {
    why = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << why;
    EXPECT_EQ(why.rfind("not supported on the CUDA backend yet: ", 0), 0u) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    // `auto` runs it on the CPU instead.
    QueryResult fallback = db.query(sql, QueryOptions{Backend::kAuto});
    EXPECT_EQ(fallback.backend, "cpu");
    EXPECT_TRUE(same(cpu, fallback, sql));
    return false;
  }
}

class GpuSsb : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuSsb, EqualsCpuAtSf001) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  std::string sql = read_file(source_dir() + "/ssb/queries/" + GetParam() + ".sql");
  std::string why;
  EXPECT_TRUE(run_both(*f.db, sql, why)) << "SSB must run on the GPU: " << why;
  // `auto` picks the GPU for star queries when a device is present.
  EXPECT_EQ(f.db->query(sql, QueryOptions{Backend::kAuto}).backend, "cuda");
}

INSTANTIATE_TEST_SUITE_P(Ssb, GpuSsb,
                         ::testing::Values("q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3",
                                           "q3.4", "q4.1", "q4.2", "q4.3"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

class GpuSsbAdhoc : public ::testing::TestWithParam<Case> {};
TEST_P(GpuSsbAdhoc, EqualsCpuOrCleanError) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  std::string why;
  const bool on_gpu = run_both(*f.db, GetParam().sql, why);
  if (!on_gpu) std::printf("[ cpu only ] %s: %s\n", GetParam().name, why.c_str());
  EXPECT_EQ(on_gpu, kSsbCpuOnly.count(GetParam().name) == 0) << why;
}
INSTANTIATE_TEST_SUITE_P(Ssb, GpuSsbAdhoc, ::testing::ValuesIn(kSsbCases),
                         [](const auto& info) { return std::string(info.param.name); });

class GpuCsvAdhoc : public ::testing::TestWithParam<Case> {};
TEST_P(GpuCsvAdhoc, EqualsCpuOrCleanError) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  std::string why;
  const bool on_gpu = run_both(*f.db, GetParam().sql, why);
  if (!on_gpu) std::printf("[ cpu only ] %s: %s\n", GetParam().name, why.c_str());
  EXPECT_EQ(on_gpu, kCsvCpuOnly.count(GetParam().name) == 0) << why;
}
INSTANTIATE_TEST_SUITE_P(Csv, GpuCsvAdhoc, ::testing::ValuesIn(kCsvCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 10: the predicate shapes run on the star kernels (EXPLAIN says so) and equal the CPU.
class GpuPredicates : public ::testing::TestWithParam<Case> {};
// The CSV tables for the CSV cases, SSB SF 0.01 for the rest.
OracleFixture& predicate_fixture(const std::string& name) {
  const bool csv = std::any_of(std::begin(kCsvPredicateCases), std::end(kCsvPredicateCases),
                               [&](const Case& c) { return name == c.name; });
  return csv ? csv_fixture() : ssb_fixture("0.01");
}
TEST_P(GpuPredicates, StarKernelsEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = predicate_fixture(GetParam().name);
  ASSERT_TRUE(f.db) << f.error;
  QueryResult e = f.db->query(std::string("explain ") + GetParam().sql, QueryOptions{Backend::kCuda});
  EXPECT_NE(e.explain.find("star kernels"), std::string::npos) << e.explain;
  std::string why;
  EXPECT_TRUE(run_both(*f.db, GetParam().sql, why)) << why;
}
// The same shapes with the boolean trees and sets inside the fused kernel (filter
// passes off) and with the passes' bits read by striped tiles: equal to the CPU.
TEST_P(GpuPredicates, FilterPassesOffAndStripedEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = predicate_fixture(GetParam().name);
  ASSERT_TRUE(f.db) << f.error;
  const std::string& sql = GetParam().sql;
  QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
  for (const auto& [key, value] : {std::pair{"cuda_filter_passes", "off"}, std::pair{"cuda_layout", "striped"},
                                   std::pair{"cuda_perfect_set_min", "0"}}) {
    QueryOptions o{Backend::kCuda};
    o.settings.set(key, value);
    QueryResult gpu = f.db->query(sql, o);
    EXPECT_EQ(gpu.backend, "cuda") << key;
    EXPECT_TRUE(same(cpu, gpu, sql)) << key << "=" << value;
  }
}
// IN lists as perfect sets in shared memory (cuda_perfect_set_min): lists of 4 to 128
// keys, keys outside the column's domain and negative ones, duplicates, a list of 129
// (the cuckoo set again), beside dimension lookups and GROUP BY accumulators in shared
// memory, and with the sets off: every answer equals the CPU backend's.
TEST(GpuPerfectSet, InListsEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  uint64_t x = 12345;
  auto next = [&]() { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 33; };
  auto list = [&](int n, int64_t lo, int64_t span) {
    std::string s;
    for (int i = 0; i < n; i++) s += (i ? ", " : "") + std::to_string(lo + int64_t(next() % uint64_t(span)));
    return s;
  };
  std::vector<std::string> sqls;
  for (int n : {4, 5, 9, 17, 64, 100, 128, 129}) {
    sqls.push_back("select count(*), sum(lo_revenue) from lineorder where lo_quantity in (" + list(n, -5, 60) + ")");
    sqls.push_back("select count(*) from lineorder where lo_orderkey in (" + list(n, 0, 60000) + ")");
    sqls.push_back("select lo_discount, count(*), max(lo_tax) from lineorder where lo_revenue in (" +
                   list(n, 0, 8000000) + ") or lo_orderkey < 0 group by lo_discount order by 1");
    sqls.push_back("select d_year, sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey and "
                   "lo_quantity in (" + list(n, 1, 50) + ") and lo_discount in (" + list(n, 0, 11) +
                   ") group by d_year order by 1");
    sqls.push_back("select lo_shipmode, count(*) from lineorder where lo_orderdate in (" + list(n, 19920101, 70000) +
                   ") group by lo_shipmode order by 1");
  }
  sqls.push_back("select count(*) from lineorder where lo_quantity in (-1, -2, -3, -4, 1000, 2000)");  // none
  sqls.push_back("select count(*) from lineorder where lo_quantity in (7, 7, 7, 7, 8, 8, 8, 8)");      // duplicates
  int matched = 0;
  for (const std::string& sql : sqls) {
    QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    for (const char* min : {"4", "0", "128"}) {
      QueryOptions o{Backend::kCuda};
      o.settings.set("cuda_perfect_set_min", min);
      QueryResult gpu = f.db->query(sql, o);
      EXPECT_EQ(gpu.backend, "cuda") << sql;
      EXPECT_TRUE(same(cpu, gpu, sql)) << "cuda_perfect_set_min=" << min;
    }
    if (cpu.row_count() > 0 && !cpu.get(0, cpu.column_count() - 1).is_null()) matched++;
  }
  EXPECT_GT(matched, 20) << "most lists select rows: the test would pass vacuously otherwise";
}

// Few groups in shared memory (the lanes of a warp mostly in the same group, their
// 64-bit atomics contending): the CPU's sums (64- and 128-bit, negative terms), minima,
// maxima and counts, with and without a WHERE mask and a dimension, on the star kernels.
TEST(GpuFewGroups, WarpAggregatedFoldsEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sqls[] = {
      "select lo_shipmode, count(*), sum(lo_revenue), min(lo_tax), max(lo_extendedprice) from lineorder "
      "group by lo_shipmode order by 1",
      "select lo_tax, sum(lo_discount - 5), min(lo_quantity - 30), max(lo_quantity - 30), count(*) from lineorder "
      "group by lo_tax order by 1",
      "select lo_discount, sum(lo_revenue * lo_extendedprice), sum(lo_revenue - lo_supplycost * 100) from lineorder "
      "where lo_quantity < 40 group by lo_discount order by 1",
      "select lo_orderpriority, count(*), avg(lo_quantity) from lineorder where lo_quantity between 10 and 20 "
      "group by lo_orderpriority order by 1",
      "select d_year, lo_shipmode, sum(lo_revenue), max(lo_supplycost) from lineorder, date "
      "where lo_orderdate = d_datekey group by d_year, lo_shipmode order by 1, 2",
  };
  for (const char* sql : sqls) {
    QueryResult e = f.db->query(std::string("explain ") + sql, QueryOptions{Backend::kCuda});
    EXPECT_NE(e.explain.find("star kernels"), std::string::npos) << sql << "\n" << e.explain;
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

// EXPLAIN ANALYZE on the star kernels: the fact kernel's filtered-row counter and the
// rows that passed the probes equal COUNT(*) of the same conditions.
TEST(GpuExplainAnalyze, StarKernelsCountRows) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string where = "(lo_quantity < 10 or lo_discount > 8)";
  QueryResult r = f.db->query("explain analyze select d_year, count(*) from lineorder, date where lo_orderdate = "
                              "d_datekey and d_year >= 1995 and " + where + " group by d_year",
                              QueryOptions{Backend::kCuda});
  const std::string& t = r.explain;
  auto count = [&](const std::string& sql) {
    return std::to_string(f.db->query(sql, QueryOptions{Backend::kCpu}).get(0, 0).as_int());
  };
  EXPECT_NE(t.find("star kernels"), std::string::npos) << t;
  EXPECT_NE(t.find(count("select count(*) from lineorder where " + where) + " passed fact filters"), std::string::npos)
      << t;
  EXPECT_NE(t.find(count("select count(*) from lineorder, date where lo_orderdate = d_datekey and d_year >= 1995 and " +
                         where) + " passed probes, 4 groups"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find(count("select count(*) from date where d_year >= 1995") + " passed filters"), std::string::npos) << t;
}

// Order statistics on the star kernels (a second pass writes each row's group, the
// device selection picks the ranks): equal to the CPU, and on the star kernels.
TEST(GpuOrderStatistics, StarKernelsEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sqls[] = {
      "select median(lo_revenue) from lineorder",
      "select d_year, median(lo_revenue), count(*) from lineorder, date where lo_orderdate = d_datekey "
      "group by d_year order by d_year",
      "select lo_shipmode, quantile_disc(lo_quantity, 0.9), quantile_cont(lo_extendedprice, 0.25), "
      "kth_largest(lo_discount, 3), kth_smallest(lo_orderdate, 1) from lineorder where lo_tax > 2 "
      "group by lo_shipmode order by 1",
      "select c_region, percentile_cont(0.75) within group (order by lo_supplycost), "
      "percentile_disc(0.5) within group (order by lo_orderpriority), sum(lo_revenue) from lineorder, customer "
      "where lo_custkey = c_custkey and (lo_quantity < 10 or lo_discount > 8) group by c_region order by 1",
      "select median(lo_quantity) from lineorder where lo_quantity > 1000",  // nothing selected: NULL
      "select d_year, kth_largest(lo_revenue, 100000) from lineorder, date where lo_orderdate = d_datekey "
      "group by d_year order by 1",  // k beyond each group: NULL
  };
  for (const char* sql : sqls) {
    QueryResult e = f.db->query(std::string("explain ") + sql, QueryOptions{Backend::kCuda});
    EXPECT_NE(e.explain.find("star kernels"), std::string::npos) << sql << "\n" << e.explain;
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

// Order statistics the star kernels do not take (DISTINCT, expressions, dimension
// columns, strings of a dimension): the general path evaluates the argument per joined
// row and the device selection picks the ranks with the CPU's keys. Must run on the
// GPU (no decline) and equal the CPU.
TEST(GpuOrderStatistics, GeneralPathEqualsCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sqls[] = {
      "select median(distinct lo_quantity), quantile_disc(distinct lo_discount, 0.3) from lineorder",
      "select d_year, median(lo_revenue - lo_supplycost), kth_largest(distinct lo_tax, 2) from lineorder, date "
      "where lo_orderdate = d_datekey group by d_year order by 1",
      "select c_region, quantile_disc(s_city, 0.5), kth_smallest(p_size, 3), median(p_size) from lineorder, customer, "
      "supplier, part where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey "
      "group by c_region order by 1",
      "select lo_shipmode, quantile_cont(cast(lo_revenue as double) / 7, [0.1, 0.5]) from lineorder "
      "group by lo_shipmode order by 1",
      "select median(d_yearmonthnum) from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and "
      "lo_quantity > 100",  // nothing selected: NULL
  };
  for (const char* sql : sqls) {
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

// kth_smallest / kth_largest with k an expression of other aggregates: k is evaluated
// per group after the aggregates (like HAVING) and the device selection takes per-group
// ranks; a NULL, non-positive or too large k gives NULL as on the CPU. On the star
// kernels where the shape allows, on the general path otherwise; never declined.
TEST(GpuOrderStatistics, KFromAggregatesEqualsCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  struct Q {
    const char* sql;
    bool star;
  };
  const Q qs[] = {
      {"select d_year, kth_smallest(lo_revenue, count(*) / 2), kth_largest(lo_quantity, count(*) / 3 + 1), count(*) "
       "from lineorder, date where lo_orderdate = d_datekey group by d_year order by d_year",
       true},
      {"select lo_shipmode, kth_largest(lo_extendedprice, count(*) - 1), kth_smallest(lo_orderpriority, "
       "count(*) / 4) from lineorder where lo_discount > 3 group by lo_shipmode order by 1",
       true},
      // k beyond the group (NULL), k below 1 (NULL), k = n and k = 1 from aggregates.
      {"select c_region, kth_smallest(lo_tax, count(*) + 1), kth_largest(lo_tax, min(lo_quantity) - 100), "
       "kth_smallest(lo_revenue, count(*)), kth_largest(lo_revenue, count(*)) from lineorder, customer "
       "where lo_custkey = c_custkey group by c_region order by 1",
       true},
      // k from a sum, and a NULL k (CASE without ELSE) for the small groups: NULL.
      {"select lo_shipmode, kth_smallest(lo_revenue, sum(lo_quantity) / 10), "
       "kth_largest(lo_discount, case when count(*) > 345 then count(*) / 2 end), count(*) "
       "from lineorder where lo_quantity < 3 group by lo_shipmode order by 1",
       true},
      // The general path: DISTINCT, an expression argument, a dimension column.
      {"select d_year, kth_smallest(distinct lo_discount, count(distinct lo_discount) / 2), "
       "kth_largest(lo_revenue - lo_supplycost, count(*) / 5) from lineorder, date where lo_orderdate = d_datekey "
       "group by d_year order by 1",
       false},
      {"select c_region, kth_smallest(p_size, count(*) / 2), count(*) from lineorder, customer, part "
       "where lo_custkey = c_custkey and lo_partkey = p_partkey group by c_region order by 1",
       false},
      // Nothing selected: NULL.
      {"select kth_smallest(lo_revenue, count(*) / 2 + 1) from lineorder where lo_quantity > 1000", true},
  };
  for (const Q& q : qs) {
    QueryResult e = f.db->query(std::string("explain ") + q.sql, QueryOptions{Backend::kCuda});
    if (q.star) EXPECT_NE(e.explain.find("star kernels"), std::string::npos) << q.sql << "\n" << e.explain;
    std::string why;
    EXPECT_TRUE(run_both(*f.db, q.sql, why)) << q.sql << ": " << why;
  }
  // Not every answer NULL: the test would pass vacuously otherwise.
  QueryResult r = f.db->query(qs[0].sql, QueryOptions{Backend::kCuda});
  ASSERT_GT(r.row_count(), 0u);
  EXPECT_FALSE(r.get(0, 1).is_null());
}

std::vector<Case> predicate_cases() {
  std::vector<Case> v(std::begin(kSsbPredicateCases), std::end(kSsbPredicateCases));
  v.insert(v.end(), std::begin(kCsvPredicateCases), std::end(kCsvPredicateCases));
  return v;
}
INSTANTIATE_TEST_SUITE_P(Issue10, GpuPredicates, ::testing::ValuesIn(predicate_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

// Shapes the CUDA backend must run (beyond SSB), so coverage cannot silently shrink.
TEST(GpuShapes, SupportedShapesRunOnTheGpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* must[] = {
      "select count(*) from lineorder",
      "select count(*), sum(lo_quantity), min(lo_orderdate), max(lo_orderdate), avg(lo_discount) from lineorder",
      "select lo_shipmode, count(*) as n from lineorder group by lo_shipmode order by lo_shipmode",
      "select sum(-lo_discount + lo_tax * 2 - (lo_quantity - 3)) from lineorder",
      "select sum(lo_extendedprice * (100 - lo_discount)) from lineorder",
      "select min(lo_shipmode), max(lo_orderpriority), count(lo_orderkey) from lineorder where lo_discount between 2 and 4",
      "select c_region, s_region, count(*) as n from lineorder join customer on lo_custkey = c_custkey "
      "join supplier on lo_suppkey = s_suppkey group by c_region, s_region order by c_region, s_region",
      "select d_year, lo_discount, sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey "
      "group by d_year, lo_discount order by 1, 2",
      "select d_year, avg(lo_discount) as avg_disc from lineorder join date on lo_orderdate = d_datekey "
      "group by d_year order by d_year",
      "select c_region, p_mfgr, sum(lo_revenue) as rev from lineorder, customer, supplier, part, date "
      "where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey "
      "and d_year >= 1997 group by c_region, p_mfgr order by rev desc",
  };
  for (const char* sql : must) {
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

// Shapes the star kernels reject and the general path runs (operator at a time).
TEST(GpuShapes, GeneralPathShapes) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* must[] = {
      "select lo_orderkey from lineorder where lo_quantity = 1 order by 1 limit 3",
      "select c_nation, count(distinct c_city), min(c_name), max(c_phone) from customer group by c_nation order by 1",
      "select count(*), sum(lo_quantity) from lineorder, customer, supplier where lo_custkey = c_custkey and c_city = s_city",
      "select p_brand1, sum(lo_revenue) from lineorder, part where lo_partkey = p_partkey and p_name like '%green%' "
      "group by p_brand1 order by 2 desc, 1 limit 7",
      "select lo_orderdate / 10000 as y, lo_discount * 2 + 1 as d, count(*), sum(lo_revenue % 7), avg(lo_tax) "
      "from lineorder group by 1, 2 order by 1, 2",
      "select case when lo_quantity > 40 then null else lo_quantity / 10 end as b, count(*) from lineorder group by 1 "
      "order by 1",
      "select a.c_custkey, b.c_custkey from customer a join customer b on a.c_city = b.c_city and a.c_nation = b.c_nation "
      "where a.c_custkey < b.c_custkey and a.c_region = 'ASIA' order by 1, 2 limit 50",
      "select sum(lo_extendedprice * lo_extendedprice * lo_quantity), sum(lo_revenue * (lo_discount - 5)) from lineorder",
      "select lo_shipmode, count(*) from lineorder where lo_orderdate between 19930101 and 19931231 or lo_quantity < 3 "
      "group by lo_shipmode order by 1",
      "select lo_orderkey, lo_linenumber, lo_revenue / 3.0 as r, cast(lo_tax as double) * 1.5 - lo_discount as t "
      "from lineorder where lo_orderkey < 300 and lo_revenue / 7.0 > 100000.5 order by 1, 2",
      "select case when lo_discount > 5 then 'high' when lo_discount > 2 then 'mid' end as band, count(*), "
      "sum(lo_quantity) from lineorder group by 1 order by 1",
      "select c_custkey, case when c_custkey % 3 = 0 then c_city end as city from customer where c_custkey < 40 "
      "order by 2, 1",
      // gpuexpr: a hidden ORDER BY key that is a string expression over two dictionaries.
      "select c_custkey from customer, supplier where c_custkey < 30 and s_suppkey = 2 "
      "order by case when c_custkey % 2 = 0 then c_name else s_name end desc, c_custkey",
      // Casts from DOUBLE over every fact row (the x87 emulation: halves at several
      // scales, an 18-digit scale whose product needs rounding to 64 bits, negatives).
      "select lo_orderkey, lo_linenumber, cast(cast(lo_quantity as double) / 2 as integer), "
      "cast(cast(lo_quantity as double) / 8 as decimal(6,2)), cast(cast(lo_discount as double) / 7 as decimal(18,17)), "
      "cast(cast(lo_extendedprice as double) / lo_quantity * 1.37 as decimal(18,6)), "
      "cast(-cast(lo_revenue as double) * 1.1 as bigint) from lineorder order by 1, 2",
      // A cross product with a string comparison across dictionaries and MIN over it.
      "select count(*), sum(s_suppkey + d_year), min(case when s_nation < d_month then s_nation else d_month end) "
      "from supplier, date",
      // A cross product feeding a keyed join, then GROUP BY a string expression.
      "select case when d_year > 1995 then s_region else 'old' end, count(*) from supplier, date, lineorder "
      "where s_suppkey = 7 and d_datekey = lo_orderdate group by 1 order by 1",
  };
  for (const char* sql : must) {
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

// LIKE inside device expressions: the general program's LIKE tables over a dictionary
// (dictionary_like_ranges: the literal search over the entries' bytes) with _, NOT,
// several pieces, an escape and patterns without a literal, against the CPU backend.
TEST(GpuShapes, DictionaryLikeTablesEqualCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* cases[] = {
      "select count(*) from customer where c_name like '%0_1%' or c_city like 'UNITED K%'",
      "select sum(case when p_name like '%green%' then 1 else 0 end), "
      "sum(case when p_name not like '%e%n%' then 1 else 0 end), sum(case when p_color like 'r_d' then 1 else 0 end), "
      "sum(case when p_name like '%' then 1 else 0 end), sum(case when p_name like '%\\_%' then 1 else 0 end) "
      "from part",
      "select c_nation, count(*) from customer where c_address like '%a%b%' or c_phone not like '1_-%' group by 1 "
      "order by 1",
  };
  int on_gpu = 0;
  for (const char* sql : cases) {
    std::string why;
    if (run_both(*f.db, sql, why)) on_gpu++;
  }
  EXPECT_GT(on_gpu, 0) << "no LIKE case ran on the CUDA backend";
}

// Run-time errors of the CPU evaluator (division by zero, overflow) are the GPU's too.
TEST(GpuShapes, ErrorsMatchTheCpu) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sqls[] = {
      "select sum(lo_revenue / (lo_discount - lo_discount)) from lineorder",
      "select count(*) from lineorder where lo_quantity % (lo_tax - lo_tax) = 1",
      // A 128-bit sum whose total leaves int128 (~3e39): the same error on both.
      "select sum((lo_quantity - 25) * 1000000000000000000 * 100000000000000000) from lineorder",
  };
  for (const char* sql : sqls) {
    std::string cpu_error, gpu_error;
    try {
      f.db->query(sql, QueryOptions{Backend::kCpu});
    } catch (const Error& e) {
      cpu_error = e.what();
    }
    try {
      f.db->query(sql, QueryOptions{Backend::kCuda});
    } catch (const Error& e) {
      gpu_error = e.what();
    }
    EXPECT_FALSE(cpu_error.empty()) << sql;
    EXPECT_EQ(cpu_error, gpu_error) << sql;
  }
}

// 128-bit sums of mixed signs (the GPU's 192-bit accumulation, its carries and sign
// extension) equal the CPU's.
TEST(GpuShapes, HugeSumsOfMixedSigns) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sqls[] = {
      "select lo_shipmode, sum((lo_quantity - 25) * 1000000000000000000 * 1000000000000000), "
      "avg((lo_quantity - 25) * 1000000000000000000 * 1000000000000000) from lineorder group by lo_shipmode",
      "select sum((lo_quantity - 26) * lo_orderkey * 1000000000000000000) from lineorder",
  };
  for (const char* sql : sqls) {
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

// gpuexpr: the CPU's run-time errors are the GPU's, line for line (first failing row).
class GpuCsvErrors : public ::testing::TestWithParam<Case> {};
TEST_P(GpuCsvErrors, SameErrorAsTheCpu) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  std::string cpu_error, gpu_error;
  try {
    f.db->query(GetParam().sql, QueryOptions{Backend::kCpu});
  } catch (const Error& e) {
    cpu_error = e.what();
  }
  try {
    f.db->query(GetParam().sql, QueryOptions{Backend::kCuda});
  } catch (const Error& e) {
    gpu_error = e.what();
  }
  EXPECT_FALSE(cpu_error.empty()) << GetParam().sql;
  EXPECT_EQ(cpu_error, gpu_error) << GetParam().sql;
}
INSTANTIATE_TEST_SUITE_P(Csv, GpuCsvErrors, ::testing::ValuesIn(kCsvExprErrorCases),
                         [](const auto& info) { return std::string(info.param.name); });

// gpuexpr: a cross product beyond 2^31 rows in one step stops with the clean line
// before anything is allocated (the CPU is not asked: it would take minutes).
TEST(GpuEdges, CrossProductRowLimitIsOneCleanLine) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  try {
    f.db->query("select count(*) from lineorder a, lineorder b", QueryOptions{Backend::kCuda});
    ADD_FAILURE() << "expected the 2^31-row limit";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << m;
    EXPECT_EQ(m, "not supported on the CUDA backend yet: a join producing 2^31 rows or more");
  }
}

TEST(GpuEdges, AllFilteredOut) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sqls[] = {
      "select sum(lo_revenue), count(*), min(lo_quantity) from lineorder where lo_quantity > 1000",
      "select lo_shipmode, count(*) from lineorder where lo_quantity < 0 group by lo_shipmode",
      "select d_year, sum(lo_revenue) from lineorder, date, part where lo_orderdate = d_datekey "
      "and lo_partkey = p_partkey and p_category = 'no such category' group by d_year",
      "select sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey and d_year = 1900",
  };
  for (const char* sql : sqls) {
    std::string why;
    EXPECT_TRUE(run_both(*f.db, sql, why)) << sql << ": " << why;
  }
}

TEST(GpuEdges, EmptyTables) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  std::string why;
  EXPECT_TRUE(run_both(*f.db, "select count(*) from empty", why)) << why;
  EXPECT_TRUE(run_both(*f.db, "select a, count(*) from empty group by a", why)) << why;
}

TEST(GpuEdges, OutOfMemoryIsCleanAndAutoFallsBack) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = read_file(source_dir() + "/ssb/queries/q2.1.sql");
  QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
  exec::cuda::clear_column_cache();
  exec::cuda::set_memory_budget(64 * 1024);  // far below one fact column
  try {
    f.db->query(sql, QueryOptions{Backend::kCuda});
    ADD_FAILURE() << "expected an out-of-memory error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_TRUE(e.kind() == ErrorKind::kOutOfMemory || e.kind() == ErrorKind::kNotImplemented) << m;
    EXPECT_NE(m.find("budget"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  QueryResult fallback = f.db->query(sql, QueryOptions{Backend::kAuto});
  EXPECT_EQ(fallback.backend, "cpu");
  EXPECT_TRUE(same(cpu, fallback, sql));
  exec::cuda::set_memory_budget(0);
  exec::cuda::clear_column_cache();
  QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
  EXPECT_TRUE(same(cpu, gpu, sql));
}

TEST(GpuEdges, MoreThan2To20Groups) {
  REQUIRE_GPU();
  std::string error;
  std::string path = shared_ssb_database("0.2", error);
  ASSERT_FALSE(path.empty()) << error;
  auto db = Database::open(path);
  const std::string sql =
      "select lo_orderkey, lo_linenumber, count(*), sum(lo_revenue), max(lo_discount) from lineorder "
      "group by lo_orderkey, lo_linenumber";
  QueryResult cpu = db->query(sql, QueryOptions{Backend::kCpu});
  ASSERT_GT(cpu.row_count(), size_t(1) << 20);
  QueryResult gpu = db->query(sql, QueryOptions{Backend::kCuda});
  EXPECT_TRUE(same(cpu, gpu, sql));
}

// ORDER BY / OFFSET / LIMIT of large non-aggregate results on the device (stable
// radix passes, only the window copied back): row for row the CPU's result, ties in
// the input order included; from 4096 rows when a LIMIT keeps at most an eighth of them.
// Smaller results and DISTINCT keep the host finisher.
TEST(GpuEdges, LargeOrderByOnTheDevice) {
  REQUIRE_GPU();
  std::string error;
  std::string path = shared_ssb_database("0.2", error);
  ASSERT_FALSE(path.empty()) << error;
  auto db = Database::open(path);
  const int64_t rows = db->query("select count(*) from lineorder", QueryOptions{Backend::kCpu}).get(0, 0).as_int();
  ASSERT_GE(rows, 1000000);
  const std::string near_end = std::to_string(rows - 5);
  // Each is >= 65536 rows before OFFSET/LIMIT; heavy ties everywhere.
  const std::vector<std::string> device = {
      // Multi-key, mixed directions, no LIMIT (about 120k rows).
      "select lo_orderkey, lo_linenumber, lo_quantity, lo_discount from lineorder where lo_orderkey % 10 = 0 "
      "order by lo_quantity, lo_discount desc",
      // Dictionary codes, dates, DESC; a window in the middle.
      "select lo_orderkey, lo_linenumber, lo_shipmode, lo_revenue from lineorder "
      "order by lo_shipmode desc, lo_orderdate, lo_revenue desc limit 100 offset 1000",
      "select lo_orderkey, lo_shipmode from lineorder order by 2 limit 25",
      // LIMIT 0, OFFSET past the end, a window that runs past the end.
      "select lo_orderkey, lo_quantity from lineorder order by lo_quantity limit 0",
      "select lo_orderkey, lo_quantity from lineorder order by lo_quantity limit 10 offset 5000000",
      "select lo_orderkey, lo_quantity from lineorder order by lo_quantity desc offset 5000000",
      "select lo_orderkey, lo_linenumber, lo_quantity from lineorder order by lo_quantity desc limit 100 offset " +
          near_end,
      // NULLs: last ascending, first descending; ties among NULLs in input order.
      "select lo_orderkey, lo_linenumber, case when lo_quantity > 40 then null else lo_quantity end as q "
      "from lineorder where lo_orderkey % 8 = 1 order by q, lo_tax desc limit 5000 offset 100",
      "select lo_orderkey, lo_linenumber, case when lo_quantity > 40 then null else lo_quantity end as q "
      "from lineorder where lo_orderkey % 8 = 1 order by q desc limit 30000",
      "select lo_orderkey, case when lo_discount > 8 then null else lo_discount end as d from lineorder "
      "where lo_orderkey % 8 = 2 order by lo_tax, d offset 60000",
      // NULLS FIRST|LAST as written (the NULL-flag pass follows the item, not its direction).
      "select lo_orderkey, lo_linenumber, case when lo_quantity > 40 then null else lo_quantity end as q "
      "from lineorder where lo_orderkey % 8 = 1 order by q nulls first, lo_tax desc limit 5000 offset 100",
      "select lo_orderkey, lo_linenumber, case when lo_quantity > 40 then null else lo_quantity end as q "
      "from lineorder where lo_orderkey % 8 = 1 order by q desc nulls last limit 30000",
      "select lo_orderkey, case when lo_discount > 8 then null else lo_discount end as d, "
      "case when lo_tax < 2 then null else cast(lo_tax as double) / 3 end as t from lineorder "
      "where lo_orderkey % 8 = 2 order by t desc nulls last, d nulls first, lo_orderkey limit 70000",
      // DOUBLE: -0 and +0 compare equal (input order), negatives, DESC.
      "select lo_orderkey, lo_linenumber, cast(lo_discount - 5 as double) * 0.0 as z from lineorder "
      "where lo_orderkey % 10 = 3 order by z limit 40000",
      "select lo_orderkey, lo_linenumber, cast(lo_discount - 5 as double) * 1.5 / lo_quantity as r from lineorder "
      "where lo_orderkey % 10 = 4 order by r desc, lo_orderkey limit 2000 offset 3",
      // BIGINT keys of both signs (a hidden ORDER BY key, then an output reference).
      "select lo_orderkey, lo_linenumber from lineorder where lo_orderkey % 10 = 5 "
      "order by lo_extendedprice * lo_extendedprice * lo_quantity - 1000000000000 desc, lo_quantity limit 20000",
      "select lo_orderkey, lo_extendedprice * lo_extendedprice * lo_quantity - 1000000000000 as h from lineorder "
      "where lo_orderkey % 10 = 6 order by h, lo_orderkey desc limit 20000 offset 5",
      // Decimals.
      "select lo_orderkey, lo_linenumber, lo_revenue * 0.25 - 400000 as r from lineorder where lo_orderkey % 10 = 8 "
      "order by r, lo_linenumber desc limit 50000",
      // gpuexpr: a string expression over a column and a constant (merged domain codes).
      "select lo_orderkey, lo_linenumber, case when lo_quantity < 25 then lo_shipmode else 'ZZ' end as m "
      "from lineorder order by m desc, lo_orderkey, lo_linenumber limit 5000 offset 7",
      // A join with a unique build key (probe order on both backends).
      "select lo_orderkey, lo_linenumber, c_nation from lineorder, customer where lo_custkey = c_custkey "
      "and lo_orderkey % 10 = 7 order by c_nation desc, lo_orderdate limit 30000 offset 10",
  };
  for (const std::string& sql : device) {
    const uint64_t before = exec::cuda::device_sorted_queries();
    std::string why;
    EXPECT_TRUE(run_both(*db, sql, why)) << sql << ": " << why;
    EXPECT_EQ(exec::cuda::device_sorted_queries(), before + 1) << "not sorted on the device: " << sql;
  }
  // Below 65536 rows with a LIMIT keeping at most an eighth of them (from 4096 rows):
  // strings, decimals and ties, OFFSET.
  const std::vector<std::string> device_top = {
      "select lo_orderkey, lo_quantity from lineorder where lo_orderkey % 100 = 0 order by lo_quantity limit 10",
      "select lo_orderkey, lo_linenumber, lo_shipmode, lo_revenue * 0.25 as r from lineorder where lo_orderkey % 50 = 3 "
      "order by lo_shipmode desc, r, lo_orderkey limit 100 offset 20",
      "select lo_orderkey, lo_linenumber, c_name, c_city from lineorder, customer where lo_custkey = c_custkey "
      "and lo_orderkey % 60 = 1 order by c_city, lo_quantity desc limit 50",
  };
  for (const std::string& sql : device_top) {
    const uint64_t before = exec::cuda::device_sorted_queries();
    std::string why;
    EXPECT_TRUE(run_both(*db, sql, why)) << sql << ": " << why;
    EXPECT_EQ(exec::cuda::device_sorted_queries(), before + 1) << "not sorted on the device: " << sql;
  }
  // Host finisher: small results, a LIMIT keeping more than an eighth, DISTINCT.
  const std::vector<std::string> host = {
      "select lo_orderkey, lo_quantity from lineorder where lo_orderkey % 1000 = 0 order by lo_quantity limit 10",
      "select lo_orderkey, lo_quantity from lineorder where lo_orderkey % 100 = 0 order by lo_quantity limit 5000",
      "select distinct lo_quantity, lo_discount from lineorder order by 2 desc, 1 limit 100",
  };
  for (const std::string& sql : host) {
    const uint64_t before = exec::cuda::device_sorted_queries();
    std::string why;
    EXPECT_TRUE(run_both(*db, sql, why)) << sql << ": " << why;
    EXPECT_EQ(exec::cuda::device_sorted_queries(), before) << sql;
  }
}

// gpuagg: exact DOUBLE sums, DOUBLE/128-bit MIN/MAX, DISTINCT and DOUBLE/128-bit keys at
// scale: more than 2^20 single-row groups (each rounded inside one thread's chunk),
// few groups spanning many chunks (partial sums through the spill slots), one global
// group; bit for bit the CPU's answer.
TEST(GpuEdges, ExactDoubleAggregatesAtScale) {
  REQUIRE_GPU();
  std::string error;
  std::string path = shared_ssb_database("0.2", error);
  ASSERT_FALSE(path.empty()) << error;
  auto db = Database::open(path);
  const std::string many =
      "select lo_orderkey, lo_linenumber, sum(cast(lo_revenue as double) / lo_quantity), avg(cast(lo_tax as double) / 3), "
      "min(cast(lo_discount - 5 as double) * 0.0), max(lo_extendedprice * lo_extendedprice * lo_quantity), "
      "count(distinct cast(lo_tax as double)) from lineorder group by lo_orderkey, lo_linenumber";
  QueryResult cpu = db->query(many, QueryOptions{Backend::kCpu});
  ASSERT_GT(cpu.row_count(), size_t(1) << 20);
  QueryResult gpu = db->query(many, QueryOptions{Backend::kCuda});
  EXPECT_TRUE(same(cpu, gpu, many));
  const char* sqls[] = {
      "select lo_shipmode, sum(cast(lo_revenue as double) / lo_quantity), avg(cast(lo_extendedprice as double) / 7), "
      "sum(distinct cast(lo_revenue as double) / 7), min(cast(lo_revenue as double) / lo_quantity), "
      "max(distinct lo_extendedprice * lo_extendedprice * lo_quantity) from lineorder group by lo_shipmode order by 1",
      "select sum(cast(lo_revenue as double) / lo_quantity), avg(cast(lo_discount - 5 as double) / 3), "
      "sum(case when lo_orderkey % 2 = 0 then cast(lo_revenue as double) * 1.0e300 else cast(lo_revenue as double) * "
      "-1.0e300 end), count(distinct cast(lo_revenue as double) / 3), min(distinct cast(lo_tax as double) * -0.0) "
      "from lineorder",
      "select cast(lo_discount as double) / 3 as d, lo_extendedprice * lo_extendedprice * lo_quantity % 5 as h, count(*), "
      "sum(cast(lo_revenue as double) / 11) from lineorder group by 1, 2 order by 1, 2",
  };
  for (const char* sql : sqls) {
    std::string why;
    EXPECT_TRUE(run_both(*db, sql, why)) << sql << ": " << why;
  }
}

}  // namespace
}  // namespace raydb::test
