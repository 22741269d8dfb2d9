#pragma once
// The order-statistics micro-benchmark: median (or any spec) of n uniformly random
// 32-bit or 64-bit integers by one algorithm on the CPU or the GPU, timed over
// repetitions after warm-up. `raydb bench ops` runs it; tests run it small.
#include <cstdint>
#include <string>
#include <vector>

#include "exec/core/order_statistics/order_statistics.h"

namespace raydb::exec::cuda::ops {

struct OrderStatBenchConfig {
  uint64_t n = 100000000;
  int key_bits = 32;  // 32: INTEGER values, 64: BIGINT values
  orderstat::Algorithm algorithm = orderstat::Algorithm::kRadix;
  bool gpu_plain_pass = true;  // kRadix on cuda: false forces the general pass kernel
  std::string device = "cpu";  // "cpu" or "cuda"
  int threads = 0;             // CPU threads (0: OpenMP's default)
  int reps = 10, warmup = 1;
  double selectivity = 1.0;    // fraction of rows a WHERE mask keeps (1: no mask)
  uint32_t groups = 1;         // > 1: uniformly random group ids
  orderstat::RankSpec spec = orderstat::RankSpec::median();
  uint64_t seed = 42;
};

struct OrderStatBenchResult {
  std::vector<double> ms;    // one per repetition: the whole order_statistics call
  double best_ms = 0, median_ms = 0;
  double upload_ms = 0;      // cuda: host -> device copy (once, not in ms)
  double answer = 0;         // group 0's result as a double (NaN when NULL)
};

// Throws when the device is "cuda" and no GPU is available.
OrderStatBenchResult bench_order_statistics(const OrderStatBenchConfig& config);

}  // namespace raydb::exec::cuda::ops
