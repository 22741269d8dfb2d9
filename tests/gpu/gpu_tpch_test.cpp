// Issue 12: the 22 TPC-H queries on the CUDA backend.
//   - CudaAnalysis.Tpch*: by plan analysis alone (no device needed, runs everywhere):
//     every block of every query (WITH queries, derived tables and subqueries, which
//     run as blocks of their own, and the outer block) must be admitted by the CUDA
//     backend, so the coverage cannot shrink unnoticed where CI has no GPU.
//   - GpuTpch.*: on a device, each query with `--backend cuda` forced (so no block may
//     be refused or fall back) must give the CPU backend's rows, at SF 0.01 and 0.1.
// Without a CUDA device the GpuTpch tests report SKIPPED.
#include <gtest/gtest.h>

#include <string>

#include "support/tpch_gpu_case.h"
#include "support/tpch_query_case.h"

namespace raydb::test {
namespace {

class TpchAnalysis : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchAnalysis, EveryBlockAdmittedAtSf001) {
  std::string all;
  for (auto& r : tpch_cuda_refusals("0.01", GetParam())) all += "\n  " + r;
  EXPECT_TRUE(all.empty()) << GetParam() << " is refused by the CUDA backend:" << all;
  // Each block's path (star kernels, or the general path with the star planner's reason)
  // in the test's XML/JSON output, where the blocks on the general path are read.
  std::string paths;
  for (auto& p : tpch_cuda_paths("0.01", GetParam())) paths += "\n  " + p;
  RecordProperty("paths", paths);
}

// TPC-H Q13 as a group-join (sql/binder_group_join.cpp): the orders are counted per
// customer key on the star kernels (one fact-table pass), no longer joined row by row
// with the customers on the general path before grouping.
TEST(CudaAnalysis, Q13CountsOrdersPerCustomerOnTheStarKernels) {
  const std::vector<std::string> paths = tpch_cuda_paths("0.01", "q13");
  std::string all;
  bool per_key_on_star = false;
  for (auto& p : paths) {
    all += "\n  " + p;
    per_key_on_star = per_key_on_star || (p.find("groupjoin: star kernels") != std::string::npos);
  }
  EXPECT_TRUE(per_key_on_star) << "q13's per-key count is not on the star kernels:" << all;
}

// Issue 12's semi and anti joins: q4's EXISTS, q21's and q22's decorrelated [NOT] EXISTS
// test their subqueries' keys as key sets (one array, not a constant per key), and the
// blocks holding them stay on CUDA.
TEST(CudaAnalysis, SemiJoinKeySetsStayOnCuda) {
  for (const char* q : {"q4", "q21", "q22"}) {
    const std::vector<std::string> blocks = tpch_key_set_blocks("0.01", q);
    std::string all;
    for (auto& b : blocks) all += "\n  " + b;
    EXPECT_FALSE(blocks.empty()) << q << " tests no key set";
    for (auto& b : blocks) {
      EXPECT_EQ(b.find("refused"), std::string::npos) << q << ":" << all;
      EXPECT_NE(b.find(": "), std::string::npos) << q << ":" << all;  // "<block>: <path>", not an error
      EXPECT_EQ(b.find("no database"), std::string::npos) << q << ":" << all;
    }
    RecordProperty(q, all);
  }
}

// The decorrelated semi joins' `key IS NOT NULL` over a column without NULLs is true
// for every row, so it no longer keeps their blocks off the star kernels: Q4's key
// reduction, EXISTS key list and outer block. Q21's EXISTS / NOT EXISTS over lineitem's
// own rows are key sets (sql/binder_self_exists.cpp) and nation folds into supplier
// (star_chain_filter.h): all four of its blocks on the star kernels.
TEST(CudaAnalysis, SemiJoinBlocksOnTheStarKernels) {
  for (const char* q : {"q4", "q21"}) {
    std::string all;
    const std::vector<std::string> paths = tpch_cuda_paths("0.01", q);
    for (auto& p : paths) all += "\n  " + p;
    EXPECT_EQ(paths.size(), std::string(q) == "q4" ? 3u : 4u) << q << ":" << all;
    for (auto& p : paths) EXPECT_NE(p.find(": star kernels"), std::string::npos) << q << ":" << all;
  }
}

// A snowflake table that only filters (nation through supplier, star_chain_filter.h)
// becomes a filter of its dimension: Q11's blocks and Q21's key reduction on the star
// kernels (Q21's outer block keeps a condition across tables: the general path).
TEST(CudaAnalysis, FilterOnlySnowflakeTablesOnTheStarKernels) {
  std::string all;
  for (auto& p : tpch_cuda_paths("0.01", "q11")) {
    all += "\n  " + p;
    EXPECT_NE(p.find(": star kernels"), std::string::npos) << "q11:" << all;
  }
  bool reduction = false;
  all.clear();
  for (auto& p : tpch_cuda_paths("0.01", "q21")) {
    all += "\n  " + p;
    if (p.rfind("key reduction", 0) != 0) continue;
    reduction = true;
    EXPECT_NE(p.find(": star kernels"), std::string::npos) << "q21:" << all;
  }
  EXPECT_TRUE(reduction) << "q21:" << all;
}

// TPC-H Q1 on the star kernels: the DECIMAL rescaling of the constants in
// sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) is folded into them, so the
// program fits kMaxProgram (it took the general path: "aggregate expression too long").
TEST(CudaAnalysis, Q1OnTheStarKernels) {
  const std::vector<std::string> paths = tpch_cuda_paths("0.01", "q1");
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0], "outer block: star kernels");
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(CudaAnalysis, TpchAnalysis, ::testing::ValuesIn(tpch_query_names()), param_name);

class GpuTpch : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuTpch, EqualsCpuAtSf001) { expect_tpch_cuda_equals_cpu("0.01", GetParam()); }
TEST_P(GpuTpch, EqualsCpuAtSf01) { expect_tpch_cuda_equals_cpu("0.1", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Tpch, GpuTpch, ::testing::ValuesIn(tpch_query_names()), param_name);

}  // namespace
}  // namespace raydb::test
