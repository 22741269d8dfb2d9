#pragma once
// `raydb bench views`: the 13 SSB queries through RT views against the star path in
// one run. It creates the views `raydb advise rt-views` proposes for the 13 queries
// (unless the database has views already), builds each once on the tracer the rt
// policy uses here (OptiX on a GPU, Embree otherwise) to report its build time and
// memory, then times every query on the star path (CUDA on a GPU, the CPU backend
// otherwise) and through its view (--backend rt), answers checked equal. JSON lines:
// one per view (create and build times, host and device bytes, bytes per row) and one
// per query (view used, rays, groups traced, hits, accumulator flushes, medians of
// both paths and their ratio). scripts/plot_bench_views.py draws them.
#include <string>

#include "raydb/raydb.h"

namespace raydb::bench {

struct ViewsBenchOptions {
  std::string dir;           // the SSB database (generated there when absent)
  double generate_sf = 1;    // scale factor of that generation
  uint64_t seed = 19920101;
  std::string star = "";     // star-path backend: "cuda" or "cpu" ("": cuda when a GPU is present)
  int warmup = 1, reps = 5;
  uint64_t group_limit = 0;  // advise: group tuples a view may have (0: the most a view takes)
  std::string json;          // JSON lines file ("" for none)
};

// Throws Error(kExecution) at the end when an answer through a view differed.
void run_views_bench(const ViewsBenchOptions& options);

}  // namespace raydb::bench
