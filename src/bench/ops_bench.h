#pragma once
// raydb bench ops: the 2004 paper's order-statistic experiment at today's scale:
// median (or a quantile / k-th value) of n random 32- or 64-bit integers under a WHERE
// mask of a given selectivity, per selection algorithm (bitwise, radix, sort) and
// device (cpu, cuda), every answer checked equal, JSON lines with the machine and GPU.
#include <cstdint>
#include <string>
#include <vector>

namespace raydb::bench {

struct OpsBenchOptions {
  std::vector<uint64_t> sizes = {100000000};
  std::vector<int> key_bits = {32};
  std::vector<std::string> algorithms = {"bitwise", "radix", "sort"};
  std::vector<std::string> devices = {"cpu"};
  std::vector<double> selectivities = {1.0};
  uint32_t groups = 1;
  std::string spec = "median";  // median | q=<0..1> (quantile_disc) | k=<n> (kth_smallest)
  int reps = 5, warmup = 1, threads = 0;
  std::string json;  // JSON lines file ("" for none)
};

// Runs every combination; Error(kExecution) when two algorithms disagree.
void run_ops_bench(const OpsBenchOptions& options);

}  // namespace raydb::bench
