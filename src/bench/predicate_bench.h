#pragma once
// raydb bench ops --suite predicates: the 2004 paper's predicate experiments at
// today's scale, through SQL on a table `ops` of n rows and four INTEGER columns
// a, b, c, d (uniform in [0, 2^30), seeded, generated into the database when it is
// missing or has another size): a single predicate over a selectivity sweep, a range,
// AND over 1-4 attributes, a semi-linear predicate over 4 attributes, IN lists, an
// OR/NOT tree, COUNT and SUM. Every query runs on each backend with the device time,
// the read-bandwidth floor of the bytes its filter columns hold, the same query from
// host memory (upload included), and the answers checked equal across backends
// (bench/query_bench).
#include <cstdint>
#include <string>
#include <vector>

namespace raydb::bench {

struct PredicateBenchOptions {
  std::string db;
  uint64_t rows = 100000000;
  std::vector<double> selectivities = {0.01, 0.1, 0.5, 0.9, 1.0};
  std::vector<std::string> devices = {"cpu", "cuda"};
  int reps = 10, warmup = 1;
  uint64_t seed = 2004;
  std::string json;
};

void run_predicate_bench(const PredicateBenchOptions& options);

}  // namespace raydb::bench
