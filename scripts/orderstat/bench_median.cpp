// Median of n uniformly random int32 values by one CPU algorithm (best of reps); writes
// the values to /tmp/median_input.i32 for duckdb_median.py, so both see the same data.
//   g++ -O3 -std=c++20 -fopenmp -Isrc -Iinclude -Ibuild/generated scripts/orderstat/bench_median.cpp \
//       build/libraydb_orderstat.a build/libraydb_common.a -lfmt -o /tmp/bench_median
//   /tmp/bench_median 100000000 2 5 radix     # n, threads, reps, bitwise|radix|sort
//   python3 scripts/orderstat/duckdb_median.py 2   # pip install duckdb numpy
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "exec/core/order_statistics/order_statistics.h"
using namespace raydb::exec::orderstat;
int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 100000000;
  const int threads = argc > 2 ? atoi(argv[2]) : 2, reps = argc > 3 ? atoi(argv[3]) : 5;
  const char* which = argc > 4 ? argv[4] : "radix";
  std::vector<int32_t> v(n);
  std::mt19937_64 rng(42);
  for (auto& x : v) x = int32_t(uint32_t(rng()));
  FILE* f = fopen("/tmp/median_input.i32", "wb"); fwrite(v.data(), 4, n, f); fclose(f);
  ColumnInput in; in.type = KeyType::kInt32; in.values = v.data(); in.n = n;
  Algorithm a; parse_algorithm(which, &a);
  SelectOptions o; o.algorithm = a; o.threads = threads;
  double best = 1e30, ans = 0;
  for (int r = 0; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    OrderStats s = order_statistics(in, {RankSpec::median()}, o);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ans = as_double(in.type, s.at(0, 0)); if (ms < best) best = ms;
    printf("%s rep %d: %.1f ms\n", which, r, ms);
  }
  printf("%s n=%llu threads=%d best %.1f ms median=%.1f\n", which, (unsigned long long)n, threads, best, ans);
}
