#include "support/tpch_gpu_case.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "exec/cpu/cpu_backend.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "exec/index/index_catalog.h"
#include "exec/query_driver.h"
#include "plan/physical/physical_planner.h"
#include "sql/query_runner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/result_rows.h"
#include "support/tpch_fixture.h"

namespace raydb::test {

namespace {

// Runs each block on the CPU (to materialize it for the outer block, as the engine
// does) after asking the CUDA backend whether it would admit it; keeps the refusals.
class AdmittingRunner : public sql::QueryRunner {
 public:
  AdmittingRunner() : cpu_({std::make_shared<exec::CpuBackend>(std::make_shared<exec::IndexCatalog>())}) {}

  // The CUDA backend's refusal of `q` ("" when admitted); `path` names the admitted
  // plan's path (the analysis's describe(): star kernels or general path).
  std::string refusal(plan::LogicalQuery q, std::string* path = nullptr) {
    key_set_block = std::any_of(q.conjuncts.begin(), q.conjuncts.end(), [](auto& e) { return has_key_set(*e); });
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(std::move(q)), {});
    auto r = exec::cuda::CudaBackend().admit(p, Settings{});
    if (path && r) *path = "refused";
    if (path && !r) {
      auto a = exec::cuda::analysis_of(p);
      *path = a->describe();
      if (!a->star) *path += " (star kernels: " + a->star_refusal + ")";
    }
    return r ? r->reason : "";
  }

  sql::TempTable materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) override {
    std::string path;
    if (std::string why = refusal(q, &path); !why.empty()) refusals.push_back(what + ": " + why);
    paths.push_back(what + ": " + path);
    if (key_set_block) key_set_paths.push_back(paths.back());
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
  std::vector<std::string> paths;  // per block run: "what: path"
  std::vector<std::string> key_set_paths;  // those of blocks testing a key set
  bool key_set_block = false;              // the last block admitted tests one

  static bool has_key_set(const plan::Expr& e) {
    if (e.kind == plan::ExprKind::kInKeySet) return true;
    return std::any_of(e.children.begin(), e.children.end(), [](auto& c) { return has_key_set(*c); });
  }

 private:
  exec::QueryDriver cpu_;
};

std::string tpch_sql(const std::string& name) { return read_file(source_dir() + "/tpch/queries/" + name + ".sql"); }

}  // namespace

namespace {

// Binds TPC-H query `name` at `sf` through `runner` (each block it runs is admitted and
// its path recorded) and admits the outer block too; "" or why there is no database.
std::string admit_blocks(const std::string& sf, const std::string& name, AdmittingRunner& runner) {
  OracleFixture& f = tpch_fixture(sf, /*with_oracle=*/false);
  if (!f.db) return "no database: " + f.error;
  auto dir = DatabaseDirectory::open(f.path);
  auto stmt = sql::parse_and_bind(
      tpch_sql(name), [&](std::string_view n) { return dir->table(n); }, {}, &runner);
  std::string path;
  if (std::string why = runner.refusal(std::move(stmt.query), &path); !why.empty())
    runner.refusals.push_back("outer block: " + why);
  runner.paths.push_back("outer block: " + path);
  if (runner.key_set_block) runner.key_set_paths.push_back(runner.paths.back());
  return "";
}

}  // namespace

std::vector<std::string> tpch_cuda_refusals(const std::string& sf, const std::string& name) {
  AdmittingRunner runner;
  if (std::string error = admit_blocks(sf, name, runner); !error.empty()) return {error};
  return runner.refusals;
}

std::vector<std::string> tpch_cuda_paths(const std::string& sf, const std::string& name) {
  AdmittingRunner runner;
  if (std::string error = admit_blocks(sf, name, runner); !error.empty()) return {error};
  return runner.paths;
}

std::vector<std::string> tpch_key_set_blocks(const std::string& sf, const std::string& name) {
  AdmittingRunner runner;
  if (std::string error = admit_blocks(sf, name, runner); !error.empty()) return {error};
  return runner.key_set_paths;
}

void expect_tpch_cuda_equals_cpu(const std::string& sf, const std::string& name) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = tpch_fixture(sf, /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = tpch_sql(name);
  QueryOptions cpu_options, cuda_options;
  cpu_options.backend = Backend::kCpu;
  cuda_options.backend = Backend::kCuda;
  QueryResult cpu = f.db->query(sql, cpu_options);
  try {
    QueryResult gpu = f.db->query(sql, cuda_options);
    EXPECT_EQ(gpu.backend, "cuda") << name;
    EXPECT_GE(gpu.device_ms, 0) << name;
    EXPECT_TRUE(same(cpu, gpu, sql)) << name << " at SF " << sf;
  } catch (const Error& e) {
    ADD_FAILURE() << name << " at SF " << sf << " did not run on the CUDA backend: " << e.what();
  }
}

}  // namespace raydb::test
