#pragma once
// raydb bench decode: the host decode of the CUDA star path's results (exec/cuda/
// star_groups.h) at TPC-H SF 20 sizes, without a device: synthetic results shaped like
// the blocks of q4, q13 and q21 (1-2 M present groups out of a 120 M-wide direct
// range), each decoded by the general steps and by the fast ones, every step timed.
#include <cstdint>

namespace raydb::bench {

struct DecodeBenchOptions {
  uint64_t groups = 1340064;    // present groups (q21's subquery block at SF 20)
  uint64_t range = 120000000;   // the group id range (o_orderkey's stored values)
  int reps = 5;
  uint64_t seed = 4;
};

// Prints per shape and decode one line per step: median ms over `reps` runs (each on
// a fresh copy of the result), then the total's median, min and max.
void run_decode_bench(const DecodeBenchOptions& options);

}  // namespace raydb::bench
