#pragma once
// `raydb bench index`: the RT index against its baselines along the RX paper's
// dimensions (keys, lookups, hit rate, sorted probes, duplicates, range hits, key
// width), one table row and JSON line per measurement, each result checked against
// an oracle (bench/index_oracle.h). The lists are the command's flags as given
// (comma-separated), parsed where the sweep first needs them.
//
// GPU rows report launch_ms (the lookup pass alone, lookups and results on the
// device, CUDA events), sort_ms (sorting the probes on the device, sorted probes only,
// not in launch_ms), build_ms (data already on the device) and upload_ms separately;
// lookup_ms is end to end from host memory.
#include <cstdint>
#include <string>

namespace raydb::bench {

struct IndexBenchOptions {
  std::string log_keys = "16,20", log_lookups = "20", hit_rates = "1.0", range_hits = "0", log_dups = "0",
              key_bits = "32", sorted_probes = "0,1", methods = "rt,rx,cgrx,sa,hash", buckets = "0", json,
              tracer = "embree";
  int reps = 3, warmup = 1, threads = 0, partitions = 1;
  uint64_t seed = 42;
};

// Throws Error(kExecution) at the end when a method disagreed with the oracle.
void run_index_bench(const IndexBenchOptions& options);

}  // namespace raydb::bench
