#pragma once
// One TPC-H query with the CUDA backend forced, against the CPU backend (shared by
// the GPU tests at SF 0.01 / 0.1 and the slow one at SF 1).
#include <string>

namespace raydb::test {

// Runs tpch/queries/<name>.sql at scale factor `sf` (tpch_fixture) on the CPU backend
// and with `--backend cuda` forced, so every block must run on the GPU: a refusal or
// any error fails the test, and the rows must be the CPU's, row for row (every TPC-H
// query orders its rows). Skips (GTEST_SKIP) without a CUDA device.
void expect_tpch_cuda_equals_cpu(const std::string& sf, const std::string& name);

}  // namespace raydb::test
