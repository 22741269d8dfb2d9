// The star kernels' aggregate programs (exec/cuda/star_plan.cpp, Compiler): DECIMAL
// constants rescaled to their operand's scale are folded into the constant, so TPC-H
// Q1's sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) fits kMaxProgram. Checked
// without a device by interpreting each compiled program on the host (as
// block/aggregate.cuh's eval_program does, in exact 128-bit arithmetic) over every
// lineitem row at SF 0.01: its sum must equal the CPU backend's. On a device
// (GpuStarProgram, skipped without one) the CUDA backend must give the CPU's rows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"
#include "support/result_rows.h"
#include "support/tpch_fixture.h"

namespace raydb::test {
namespace {

const char* const kArguments[] = {
    "l_extendedprice * (1 - l_discount) * (1 + l_tax)",  // TPC-H Q1
    "(1 + l_tax) * l_extendedprice",
    "l_extendedprice * (2.5 - l_discount)",  // a constant of scale 1 rescaled to 2
    "-1 + l_quantity",
    "100 - l_quantity * 2",
    "l_quantity - 1000000000000",  // rescaled to 10^14: still 64-bit
    "(l_quantity + 1) * (3 - l_discount) - 7",
};

// Runs a DevAgg program for one row with exact registers.
__int128 interpret(const exec::cuda::DevAgg& a, const exec::cuda::StarPlan& sp, uint64_t row) {
  using namespace exec::cuda;
  __int128 r[kProgramRegisters] = {};
  for (int k = 0; k < a.nins; k++) {
    const DevInstr& in = a.ins[k];
    __int128 z = 0;
    switch (in.op) {
      case kOpLoad: z = sp.fact_columns[size_t(in.col)]->get(row).as_hugeint(); break;
      case kOpConst: z = in.k; break;
      case kOpAdd: z = r[in.a] + r[in.b]; break;
      case kOpSub: z = r[in.a] - r[in.b]; break;
      case kOpMul: z = r[in.a] * r[in.b]; break;
      default: z = -r[in.a]; break;
    }
    r[in.dst] = z;
  }
  return r[0];
}

TEST(CudaAnalysis, RescaledConstantsFoldIntoStarPrograms) {
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  auto dir = DatabaseDirectory::open(f.path);
  for (const char* arg : kArguments) {
    const std::string sql = std::string("select sum(") + arg + ") from lineitem";
    auto stmt = sql::parse_and_bind(sql, [&](std::string_view n) { return dir->table(n); }, {}, nullptr);
    plan::PhysicalPlan p = plan::plan_query(std::make_shared<plan::LogicalQuery>(stmt.query), {});
    auto analysed = exec::cuda::analyze(p);
    const auto* sp = std::get_if<exec::cuda::StarPlan>(&analysed);
    ASSERT_TRUE(sp) << sql << ": " << std::get<std::string>(analysed);
    ASSERT_EQ(sp->aggs.size(), 1u);
    const exec::cuda::DevAgg& a = sp->aggs[0].dev;
    __int128 sum = 0;
    const uint64_t rows = sp->root_rows;
    for (uint64_t row = 0; row < rows; row++) sum += interpret(a, *sp, row);
    const QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    ASSERT_EQ(cpu.row_count(), 1u);
    EXPECT_TRUE(cpu.get(0, 0).as_hugeint() == sum) << sql << ": the program's sum differs from the CPU's "
                                                    << cpu.get(0, 0).to_string();
  }
  // Q1's charge: 9 instructions (the constants 1 load already rescaled as 100).
  auto stmt = sql::parse_and_bind(std::string("select sum(") + kArguments[0] + ") from lineitem",
                                  [&](std::string_view n) { return dir->table(n); }, {}, nullptr);
  auto analysed = exec::cuda::analyze(plan::plan_query(std::make_shared<plan::LogicalQuery>(stmt.query), {}));
  ASSERT_TRUE(std::holds_alternative<exec::cuda::StarPlan>(analysed));
  EXPECT_EQ(std::get<exec::cuda::StarPlan>(analysed).aggs[0].dev.nins, 9);
}

TEST(GpuStarProgram, RescaledConstantsEqualCpu) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = tpch_fixture("0.01", /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  for (const char* arg : kArguments) {
    const std::string sql =
        std::string("select l_returnflag, l_linestatus, sum(") + arg + "), count(*) from lineitem group by 1, 2";
    const QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    const QueryResult gpu = f.db->query(sql, QueryOptions{Backend::kCuda});
    EXPECT_EQ(gpu.backend, "cuda") << sql;
    EXPECT_TRUE(same_rows(rows_of(cpu), rows_of(gpu), false, sql));
  }
}

}  // namespace
}  // namespace raydb::test
