#pragma once
// One TPC-H query on the CUDA backend: admitted by plan analysis, and with the backend
// forced, against the CPU backend (shared by the GPU tests at SF 0.01 / 0.1 and the
// slow ones at SF 1).
#include <string>
#include <vector>

namespace raydb::test {

// Runs tpch/queries/<name>.sql at scale factor `sf` (tpch_fixture) on the CPU backend
// and with `--backend cuda` forced, so every block must run on the GPU: a refusal or
// any error fails the test, and the rows must be the CPU's, row for row (every TPC-H
// query orders its rows). Skips (GTEST_SKIP) without a CUDA device.
void expect_tpch_cuda_equals_cpu(const std::string& sf, const std::string& name);

// The CUDA backend's refusals of the blocks of TPC-H query `name` at `sf`, by plan
// analysis alone (no device needed): each WITH query, derived table and subquery
// ("subquery: <reason>") as the binder runs it (then materialized by the CPU backend
// for the outer block), and the outer block. Empty when every block is admitted.
std::vector<std::string> tpch_cuda_refusals(const std::string& sf, const std::string& name);

// The CUDA backend's path for each block of `name` at `sf` (as tpch_cuda_refusals runs
// them), in the order they run: "<block>: star kernels", "<block>: general path" or
// "<block>: refused"; the outer block last.
std::vector<std::string> tpch_cuda_paths(const std::string& sf, const std::string& name);

// The blocks of `name` at `sf` that test a key set (a subquery's keys held as one
// array, ExprKind::kInKeySet), as "<block>: <path>", the path as tpch_cuda_paths says.
std::vector<std::string> tpch_key_set_blocks(const std::string& sf, const std::string& name);

}  // namespace raydb::test
