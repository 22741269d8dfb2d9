#pragma once
// `raydb bench ssb`: time the 13 SSB queries (warm-up, repetitions, median/min/max),
// verify every repetition against the first run, print a table and write JSON lines.
// On a GPU backend it also reports the device time, the end-to-end time from host
// memory and the bandwidth floor of each query. With one_shot, the time a fresh
// process takes for each query, beside the resident and warm times.
#include <cstdint>
#include <string>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::bench {

struct SsbBenchOptions {
  std::string dir;              // the SSB database (generated there when absent)
  double generate_sf = 1;       // scale factor of that generation
  uint64_t seed = 19920101;     // generator seed of that generation
  QueryOptions query;           // backend and threads
  int warmup = 1, reps = 10;
  std::vector<std::string> only;  // query names to run (empty: all 13)
  std::string json;               // JSON lines file ("" for none)
  // Fresh processes per query (0: none): each query also runs one-shot, in a new
  // `raydb query --timing` process, N times; reported beside the resident and warm
  // times with the bytes read, needed and copied to the device (one more JSON line
  // per query, "mode": "end_to_end").
  int one_shot = 0;
};

// Throws Error(kExecution) after printing when a repetition differed from the first.
void run_ssb_bench(const SsbBenchOptions& options);

}  // namespace raydb::bench
