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

}  // namespace
}  // namespace raydb::test
