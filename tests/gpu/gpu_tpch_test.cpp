// Issue 12: the 22 TPC-H queries on the CUDA backend.
//   - CudaAnalysis.Tpch*: by plan analysis alone (no device needed, runs everywhere):
//     every block of every query (WITH queries, derived tables and subqueries, which
//     run as blocks of their own, and the outer block) must be admitted by the CUDA
//     backend, so the coverage cannot shrink unnoticed where CI has no GPU.
//   - GpuTpch.*: on a device, each query with `--backend cuda` forced (so no block may
//     be refused or fall back) must give the CPU backend's rows, at SF 0.01 and 0.1.
// Without a CUDA device the GpuTpch tests report SKIPPED.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "exec/cpu/cpu_backend.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/index/index_catalog.h"
#include "exec/query_driver.h"
#include "plan/physical/physical_planner.h"
#include "sql/query_runner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/fixtures.h"
#include "support/tpch_fixture.h"
#include "support/tpch_gpu_case.h"
#include "support/tpch_query_case.h"

namespace raydb::test {
namespace {

// Runs each block on the CPU (to materialize it for the outer block, as the engine
// does) after asking the CUDA backend whether it would admit it; keeps the refusals.
class AdmittingRunner : public sql::QueryRunner {
 public:
  AdmittingRunner() : cpu_({std::make_shared<exec::CpuBackend>(std::make_shared<exec::IndexCatalog>())}) {}

  // The CUDA backend's refusal of `q` ("" when admitted).
  std::string refusal(plan::LogicalQuery q) {
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(std::move(q)), {});
    auto r = exec::cuda::CudaBackend().admit(p, Settings{});
    return r ? r->reason : "";
  }

  sql::TempTable materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) override {
    if (std::string why = refusal(q); !why.empty()) refusals.push_back(what + ": " + why);
    std::vector<Type> types;
    for (auto& e : q.select) types.push_back(e->type);
    const std::vector<std::string> names = q.output_names;
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(std::move(q)), {});
    exec::ExecutionRequest request;
    request.backend = plan::BackendKind::kCpu;
    exec::ResultTable t = cpu_.run(p, request, {}, exec::ExecOptions{});
    sql::TempTableBuilder b(name, names, types, what);
    for (size_t row = 0; row < t.rows; row++)
      for (size_t c = 0; c < t.columns.size(); c++) b.append(c, t.columns[c].value_at(row));
    return b.finish();
  }
  TablePtr table_function(const std::string& name, const std::vector<std::string>&) override {
    ADD_FAILURE() << "TPC-H reads no table function: " << name;
    return nullptr;
  }

  std::vector<std::string> refusals;

 private:
  exec::QueryDriver cpu_;
};

std::string tpch_sql(const std::string& name) { return read_file(source_dir() + "/tpch/queries/" + name + ".sql"); }

class TpchAnalysis : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchAnalysis, EveryBlockAdmittedAtSf001) {
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  auto dir = DatabaseDirectory::open(f.path);
  AdmittingRunner runner;
  auto stmt = sql::parse_and_bind(
      tpch_sql(GetParam()), [&](std::string_view n) { return dir->table(n); }, {}, &runner);
  if (std::string why = runner.refusal(std::move(stmt.query)); !why.empty()) runner.refusals.push_back("outer block: " + why);
  std::string all;
  for (auto& r : runner.refusals) all += "\n  " + r;
  EXPECT_TRUE(runner.refusals.empty()) << GetParam() << " is refused by the CUDA backend:" << all;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(CudaAnalysis, TpchAnalysis, ::testing::ValuesIn(tpch_query_names()), param_name);

class GpuTpch : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuTpch, EqualsCpuAtSf001) { expect_tpch_cuda_equals_cpu("0.01", GetParam()); }
TEST_P(GpuTpch, EqualsCpuAtSf01) { expect_tpch_cuda_equals_cpu("0.1", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Tpch, GpuTpch, ::testing::ValuesIn(tpch_query_names()), param_name);

}  // namespace
}  // namespace raydb::test
