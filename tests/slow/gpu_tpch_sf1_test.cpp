// The 22 TPC-H queries at SF 1 on the CUDA backend (label `slow`; RAYDB_TPCH_SF1_DB=<dir>
// reuses an existing `raydb gen tpch --sf 1` database):
//   - TpchAnalysisSf1: every block admitted by plan analysis (no device needed; at SF 1
//     the data decides some shapes, e.g. the star kernels' dense GROUP BY slots);
//   - GpuTpchSf1: with `--backend cuda` forced, the CPU backend's rows. Without a CUDA
//     device these report SKIPPED.
#include <gtest/gtest.h>

#include "support/tpch_gpu_case.h"
#include "support/tpch_query_case.h"

namespace raydb::test {
namespace {

std::string param_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

class TpchAnalysisSf1 : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchAnalysisSf1, EveryBlockAdmitted) {
  std::string all;
  for (auto& r : tpch_cuda_refusals("1", GetParam())) all += "\n  " + r;
  EXPECT_TRUE(all.empty()) << GetParam() << " is refused by the CUDA backend:" << all;
}

INSTANTIATE_TEST_SUITE_P(Tpch, TpchAnalysisSf1, ::testing::ValuesIn(tpch_query_names()), param_name);

class GpuTpchSf1 : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuTpchSf1, EqualsCpu) { expect_tpch_cuda_equals_cpu("1", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Tpch, GpuTpchSf1, ::testing::ValuesIn(tpch_query_names()), param_name);

}  // namespace
}  // namespace raydb::test
