#pragma once
// `raydb bench stream`: per SSB query, the resident CUDA run (its columns uploaded into an
// empty cache: what they need on the device), then the same query with gpu_memory_limit
// at `fraction` of that, where the star kernels stream the fact columns through in
// chunks. Reports per query the resident and streamed device and wall times, the fact
// bytes moved, the effective GB/s against the pinned host-to-device bandwidth measured
// in this run, and whether the answers equal the resident run's and the CPU backend's.
#include <string>

namespace raydb::bench {

struct StreamBenchOptions {
  std::string dir;
  double fraction = 0.25;
  int reps = 5;
  std::string only_text;  // "q1.1,q4.3"; empty: all 13
  std::string json;
};

// Throws Error(kExecution) after printing when a query failed or an answer differed
// (a failing query is reported on its row; the others still run).
void run_stream_bench(const StreamBenchOptions& options);

}  // namespace raydb::bench
