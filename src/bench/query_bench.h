#pragma once
// `raydb bench query`: time arbitrary SQL queries repeatedly under several backends
// and index-path settings, in one process (so GPU-resident columns and indexes are
// built once, and their build is not timed): warm-up, repetitions, median/min/max of
// the host wall time and, on the GPU, of the device time (CUDA events); every
// repetition and every configuration must return the first configuration's result.
// The plan of each configuration (EXPLAIN: device, access paths, index kinds and both
// costs) goes into the JSON line.
#include <string>
#include <utility>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::bench {

struct QueryBenchOptions {
  std::string db;
  std::vector<std::pair<std::string, std::string>> queries;  // (name, SQL)
  // Optional, per query: the bytes its scan must read. With them each record gets
  // the device read-bandwidth floor (bytes / measured GB/s) and the host-to-device
  // copy time of those bytes, and GPU configurations run once more from host
  // memory first (column cache cleared: `cold_ms`, upload included).
  std::vector<uint64_t> bytes;
  std::vector<Backend> backends;
  std::vector<std::string> index_paths;  // values of the index_paths setting: cost, force, off
  int reps = 10, warmup = 1;
  std::string json;  // JSON lines file ("" for none)
};

// Throws Error(kExecution) at the end when a repetition or configuration differed.
void run_query_bench(const QueryBenchOptions& options);

}  // namespace raydb::bench
