// Which ad-hoc cases the CUDA backend accepts, by plan analysis alone: runs on every
// machine (no device needed), so the GPU coverage cannot shrink unnoticed where CI
// has no GPU. tests/gpu/gpu_backend_test.cpp runs the same lists on a device and
// requires each accepted case to equal the CPU's result.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/adhoc_cases.h"
#include "support/cuda_coverage.h"
#include "support/fixtures.h"
#include "support/predicate_cases.h"

namespace raydb::test {
namespace {

std::optional<std::string> cuda_verdict(OracleFixture& f, const char* sql) {
  auto dir = DatabaseDirectory::open(f.path);
  auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
  auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
  return exec::cuda::unsupported_reason(plan::plan_query(q, {}));
}

template <size_t N>
void check_list(OracleFixture& f, const Case (&cases)[N], const std::set<std::string>& cpu_only) {
  for (const Case& c : cases) {
    auto why = cuda_verdict(f, c.sql);
    const bool expect_cpu = cpu_only.count(c.name) > 0;
    EXPECT_EQ(bool(why), expect_cpu) << c.name << ": " << (why ? *why : std::string("accepted by the CUDA backend"));
    if (why) std::printf("[ cpu only ] %s: %s\n", c.name, why->c_str());
  }
}

TEST(CudaAnalysis, SsbAdhocCasesOnTheGpu) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  check_list(f, kSsbCases, kSsbCpuOnly);
}

TEST(CudaAnalysis, CsvAdhocCasesOnTheGpu) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  check_list(f, kCsvCases, kCsvCpuOnly);
}

// gpuexpr: the run-time error cases run on the GPU too (their errors must be the CPU's).
TEST(CudaAnalysis, CsvErrorCasesOnTheGpu) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  check_list(f, kCsvExprErrorCases, {});
}

// Issue 10: every predicate shape of the 2004 paper (long IN lists, OR/NOT trees across
// columns, semi-linear and column comparisons) runs inside the fused star kernels,
// never on the general path because of its shape.
template <size_t N>
void expect_star(OracleFixture& f, const Case (&cases)[N]) {
  for (const Case& c : cases) {
    auto dir = DatabaseDirectory::open(f.path);
    auto stmt = sql::parse_and_bind(c.sql, [&](std::string_view n) { return dir->table(n); });
    auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
    auto r = exec::cuda::analyze(plan::plan_query(q, {}));
    const std::string* why = std::get_if<std::string>(&r);
    EXPECT_EQ(why, nullptr) << c.name << ": " << *why;
  }
}

TEST(CudaAnalysis, PredicateShapesOnTheStarKernels) {
  OracleFixture& s = ssb_fixture("0.01");
  ASSERT_TRUE(s.db) << s.error;
  expect_star(s, kSsbPredicateCases);
  OracleFixture& c = csv_fixture();
  ASSERT_TRUE(c.db) << c.error;
  expect_star(c, kCsvPredicateCases);
}

std::variant<exec::cuda::StarPlan, std::string> star_analysis(OracleFixture& f, const char* sql) {
  auto dir = DatabaseDirectory::open(f.path);
  auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
  auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
  return exec::cuda::analyze(plan::plan_query(q, {}));
}

// k of kth_smallest / kth_largest from other aggregates: the CUDA backend takes it
// (star kernels for a fact column, the general path otherwise) instead of declining.
TEST(CudaAnalysis, KFromAggregatesOnTheGpu) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* star = "select d_year, kth_smallest(lo_revenue, count(*) / 2) from lineorder, date "
                     "where lo_orderdate = d_datekey group by d_year";
  const char* general = "select d_year, kth_largest(distinct lo_discount, count(*) / 1000) from lineorder, date "
                        "where lo_orderdate = d_datekey group by d_year";
  EXPECT_FALSE(cuda_verdict(f, star)) << *cuda_verdict(f, star);
  EXPECT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(star_analysis(f, star)));
  EXPECT_FALSE(cuda_verdict(f, general)) << *cuda_verdict(f, general);
}

// OR across dimensions: the dimension parts become membership sets on the foreign
// keys (fact-table filters of the star plan); a part over two tables at once stays off
// the star kernels with its reason.
TEST(CudaAnalysis, OrAcrossDimensionsAsFactFilters) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  auto r = star_analysis(f, "select count(*) from lineorder, date, supplier where lo_orderdate = d_datekey and "
                            "lo_suppkey = s_suppkey and (d_year = 1993 or s_region = 'ASIA')");
  ASSERT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(r)) << std::get<std::string>(r);
  const exec::cuda::StarPlan& sp = std::get<exec::cuda::StarPlan>(r);
  ASSERT_EQ(sp.fact_trees.size(), 1u);  // lo_orderdate IN (...) OR lo_suppkey IN (...)
  EXPECT_EQ(sp.fact_trees[0].program.ranges().size(), 2u);
  EXPECT_FALSE(sp.always_false);
  // Holds for every joined row: no filter at all; holds for none: nothing can pass.
  auto all = star_analysis(f, "select count(*) from lineorder, date, supplier where lo_orderdate = d_datekey and "
                              "lo_suppkey = s_suppkey and (d_year >= 1992 or s_region = 'ASIA')");
  ASSERT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(all));
  EXPECT_TRUE(std::get<exec::cuda::StarPlan>(all).fact_trees.empty());
  EXPECT_TRUE(std::get<exec::cuda::StarPlan>(all).fact_filters.empty());
  auto none = star_analysis(f, "select count(*) from lineorder, date, supplier where lo_orderdate = d_datekey and "
                               "lo_suppkey = s_suppkey and (d_year < 1900 or s_region = 'MARS')");
  ASSERT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(none));
  EXPECT_TRUE(std::get<exec::cuda::StarPlan>(none).always_false);
  auto across = star_analysis(f, "select count(*) from lineorder, date, supplier where lo_orderdate = d_datekey and "
                                 "lo_suppkey = s_suppkey and d_year < s_suppkey + 1990");
  ASSERT_TRUE(std::holds_alternative<std::string>(across));
  EXPECT_NE(std::get<std::string>(across).find("across tables"), std::string::npos) << std::get<std::string>(across);
}

// GROUP BY fact-table keys whose value combinations far outnumber the fact rows (TPC-H
// q20's l_partkey, l_suppkey) would need that many dense accumulators in the star
// kernel: the general path's hash grouping takes them instead; a small range stays.
TEST(CudaAnalysis, SparseFactGroupKeysLeaveTheStarKernels) {
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const char* sparse = "select lo_orderkey, lo_partkey, sum(lo_revenue) from lineorder group by lo_orderkey, lo_partkey";
  auto r = star_analysis(f, sparse);
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("dense GROUP BY slots"), std::string::npos) << std::get<std::string>(r);
  EXPECT_FALSE(cuda_verdict(f, sparse)) << *cuda_verdict(f, sparse);
  const char* dense = "select lo_discount, lo_quantity, sum(lo_revenue) from lineorder group by lo_discount, lo_quantity";
  EXPECT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(star_analysis(f, dense)));
}

}  // namespace
}  // namespace raydb::test
