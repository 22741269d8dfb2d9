#pragma once
// raydb bench keysets: the host steps around a decorrelated semi / anti join's key set
// at TPC-H sizes (default SF 20: 30 M order keys over a 120 M-wide key range, 1.34 M of
// them in the set, as q21's blocks give), each timed alone with steady_clock, no device:
//   result      a block's 1-column integer result kept as a temporary table
//   key set     its words read from the kept column and KeySet::make over them
//   pred in     ColumnPredicate::compile of `key IN set`
//   pred not    ColumnPredicate::compile of `NOT (key IN set)`
//   star plan   plan_query and the CUDA star analysis of a count(*) with both filters
//   star sets   the star kernel's device-set form (bitmap) of each fact filter, built
//               on the host from its stored ranges (what `host: params` spends)
#include <cstdint>

namespace raydb::bench {

struct KeySetBenchOptions {
  uint64_t orders = 30000000;  // TPC-H orders at SF 20 (keys: 8 of every 32)
  uint64_t keys = 1340000;     // keys in the set
  int reps = 5;
  uint64_t seed = 21;
};

// Prints one line per step: median, min and max ms over `reps` runs.
void run_key_set_bench(const KeySetBenchOptions& options);

}  // namespace raydb::bench
