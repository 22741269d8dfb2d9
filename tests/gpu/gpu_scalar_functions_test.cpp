// Scalar functions on the CUDA backend (issue 12). The interpreter has no scalar
// function instructions yet, so a plan with one must be declined with one line naming
// the function (and `auto` must give the CPU's answer); coalesce/nullif (bound as
// CASE) and DATE +- INTERVAL (folded, or DATE + INTEGER) must run on the GPU with
// the CPU's results. Without a CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include "exec/cuda/cuda_backend.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU() \
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

TEST(GpuScalarFunctions, CaseFormsAndIntervalsRunOnTheGpu) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  for (const char* sql : {
           "select id, coalesce(nullif(boss, 1), -1), nullif(salary, 0) from emp order by id",
           "select count(*) from emp where hired < date '2020-01-31' + interval '1' month",
           "select id, hired + interval '10' day, hired - interval '2 weeks' from emp order by id",
           "select dept, sum(coalesce(nullif(salary, 100), 0)) from emp group by dept order by dept",
       }) {
    QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_TRUE(same(cpu, gpu, sql));
  }
}

TEST(GpuScalarFunctions, FunctionsAreDeclinedInOneLineAndAutoFallsBack) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  const std::pair<const char*, const char*> cases[] = {
      {"select id, upper(name) from emp order by id", "upper"},
      {"select extract(year from hired), count(*) from emp group by 1 order by 1", "year"},
      {"select count(*) from emp where substr(name, 1, 1) = 'A'", "substr"},
      {"select sum(round(salary, 1)) from emp", "round"},
      {"select id from emp where hired + interval '1' month > date '2020-01-01' order by id", "add_months"},
      {"select cast(name as integer) from emp where id < 0", "name"},
  };
  for (auto& [sql, name] : cases) {
    QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    try {
      f.db->query(sql, QueryOptions{Backend::kCuda});
      ADD_FAILURE() << "the CUDA backend ran " << sql;
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << m;
      EXPECT_NE(m.find(name), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    QueryResult fallback = f.db->query(sql, QueryOptions{Backend::kAuto});
    EXPECT_EQ(fallback.backend, "cpu") << sql;
    EXPECT_TRUE(same(cpu, fallback, sql));
  }
}

}  // namespace
}  // namespace raydb::test
