// Scalar functions on the CUDA backend (issue 12). Date fields and date_trunc run as
// one interpreter instruction (exact civil-from-days arithmetic); string functions of
// one VARCHAR column and constants are computed per dictionary entry on the host and
// mapped by code on the device; both must give the CPU's results. Functions the
// interpreter lacks (round, add_months, ...) must be declined with one line naming the
// function (and `auto` must give the CPU's answer); coalesce/nullif (bound as CASE) and
// DATE +- INTERVAL (folded, or DATE + INTEGER) run on the GPU. IN lists longer than
// 64 values (one set instruction) are checked here too. Without a CUDA device every
// test reports SKIPPED.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_device.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
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

// `sql` on both backends, the CUDA one forced: the same rows.
void expect_gpu_equals_cpu(Database& db, const std::string& sql) {
  QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  try {
    QueryResult gpu = db.query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_TRUE(same(cpu, gpu, sql));
  } catch (const Error& e) {
    ADD_FAILURE() << sql << " did not run on the CUDA backend: " << e.what();
  }
}

std::vector<std::string> date_field_queries() {
  return {
      "select id, extract(year from hired), extract(month from hired), extract(day from hired), "
      "extract(quarter from hired), extract(dow from hired), extract(doy from hired) from emp order by id",
      "select id, date_trunc('year', hired), date_trunc('quarter', hired), date_trunc('month', hired) "
      "from emp order by id",
      "select extract(year from hired), count(*), sum(salary) from emp group by 1 order by 1",
      "select id, year(hired + 300), month(hired - 40) from emp where extract(dow from hired) <> 0 order by id",
      "select count(*) from emp, proj where lead = id and extract(year from start) >= extract(year from hired)",
  };
}

std::vector<std::string> string_function_queries() {
  return {
      "select id, upper(name), lower(name), length(name), strpos(name, 'o') from emp order by id",
      "select substr(name, 1, 2) as p, count(*) from emp group by p order by p",  // UTF-8 characters
      "select count(*) from emp where substr(name, 1, 1) = 'A'",
      "select id from emp where upper(name) = 'ALICE' or substr(dept, 2) in ('ng', 'ps') order by id",
      "select id, concat(name, '!'), replace(name, 'b', 'B') from emp order by id",
      "select id, btrim(name, 'A') from emp where id > 2 and substr(name, 2, 3) < dept order by id",
      "select d.city, substr(e.name, 1, 1) as i, count(*) from emp e join dept d on e.dept = d.dept "
      "group by d.city, i order by 1, 2",
      // Short string lists over an expression: one table over the domain (NULL item: not found is NULL).
      "select id, case when substr(name, 1, 1) in ('A', 'B', NULL) then 'y' when substr(name, 1, 1) not in "
      "('A', 'B', NULL) then 'n' else 'null' end from emp order by id",
      "select id from emp where upper(name) not in ('ALICE', 'BOB') order by id",
  };
}

// `count` items first, first + step, ... with `extra` appended, as an IN list's text.
std::string list_of(int count, int first, int step, const std::string& extra = "") {
  std::string s;
  for (int i = 0; i < count; i++) s += (i ? ", " : "") + std::to_string(first + i * step);
  return s + extra;
}

std::vector<std::string> long_in_list_queries() {
  std::string names;
  for (int i = 0; i < 70; i++) names += "'N" + std::to_string(i) + "', ";
  return {
      "select id from emp where id in (" + list_of(80, 3, 2) + ") order by id",
      "select id from emp where id + 1 not in (" + list_of(80, 3, 2) + ") order by id",
      // A NULL item: not found is NULL (so NOT IN keeps nothing), found is TRUE.
      "select id, case when id in (" + list_of(70, 2, 3, ", NULL") + ") then 'in' when id not in (" +
          list_of(70, 2, 3, ", NULL") + ") then 'out' else 'unknown' end from emp order by id",
      // Decimal scales: 70000.25 matches, 1.5 and 0.001 can equal nothing of scale 2.
      "select id from emp where salary in (" + list_of(70, 1, 1, ", 70000.25, 1.5, 0.001, 0.01") + ") order by id",
      "select id from emp where hired - date '2015-01-01' in (" + list_of(90, 0, 31) + ") order by id",
      "select id from emp where upper(name) in (" + names + "'ALICE', 'BOB') order by id",
      "select id from emp where substr(name, 1, 3) not in (" + names + "'Ali', NULL) order by id",
      "select id from emp where case when id > 3 then name else dept end in (" + names + "'eng', 'Zoë') order by id",
  };
}

// Without a device: plan analysis admits every query above.
TEST(CudaAnalysis, FunctionsAndLongInListsAdmitted) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  auto dir = DatabaseDirectory::open(f.path);
  for (auto* list : {date_field_queries, string_function_queries, long_in_list_queries})
    for (const std::string& sql : list()) {
      auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
      auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
      auto why = exec::cuda::unsupported_reason(plan::plan_query(q, {}));
      EXPECT_FALSE(why) << sql << ": " << *why;
    }
}

// Without a device: functions the interpreter lacks are declined by plan analysis,
// naming the function.
TEST(CudaAnalysis, OtherFunctionsDeclinedByName) {
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  auto dir = DatabaseDirectory::open(f.path);
  const std::pair<const char*, const char*> cases[] = {
      {"select id, upper(name || dept) from emp order by id", "upper"},
      {"select id, length(substr(name, 2)) from emp order by id", "length"},
      {"select sum(round(salary, 1)) from emp", "round"},
      {"select id from emp where hired + interval '1' month > date '2020-01-01' order by id", "add_months"},
  };
  for (auto& [sql, name] : cases) {
    auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); });
    auto q = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
    auto why = exec::cuda::unsupported_reason(plan::plan_query(q, {}));
    ASSERT_TRUE(why) << sql;
    EXPECT_NE(why->find(std::string("the scalar function ") + name), std::string::npos) << *why;
  }
}

TEST(GpuScalarFunctions, DateFieldsRunOnTheGpu) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  for (const std::string& sql : date_field_queries()) expect_gpu_equals_cpu(*f.db, sql);
}

TEST(GpuScalarFunctions, StringFunctionsOfOneColumnRunOnTheGpu) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  for (const std::string& sql : string_function_queries()) expect_gpu_equals_cpu(*f.db, sql);
}

TEST(GpuScalarFunctions, LongInListsRunOnTheGpu) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  for (const std::string& sql : long_in_list_queries()) expect_gpu_equals_cpu(*f.db, sql);
}

TEST(GpuScalarFunctions, FunctionsAreDeclinedInOneLineAndAutoFallsBack) {
  REQUIRE_GPU();
  OracleFixture& f = csv_fixture();
  ASSERT_TRUE(f.db) << f.error;
  const std::pair<const char*, const char*> cases[] = {
      {"select id, upper(name || dept) from emp order by id", "upper"},  // over an expression
      {"select id, length(substr(name, 2)) from emp order by id", "length"},  // over an expression
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
