// The 22 TPC-H queries at SF 1 with the CUDA backend forced, against the CPU backend
// (label `slow`; RAYDB_TPCH_SF1_DB=<dir> reuses an existing `raydb gen tpch --sf 1`
// database). Without a CUDA device every test reports SKIPPED.
#include <gtest/gtest.h>

#include "support/tpch_gpu_case.h"
#include "support/tpch_query_case.h"

namespace raydb::test {
namespace {

class GpuTpchSf1 : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuTpchSf1, EqualsCpu) { expect_tpch_cuda_equals_cpu("1", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Tpch, GpuTpchSf1, ::testing::ValuesIn(tpch_query_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace raydb::test
