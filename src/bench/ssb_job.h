#pragma once
// `raydb ssb`, the main job: generate SSB when the database is absent, run the 13
// queries on the chosen backend, print each result and a timing table.
#include <string>

#include "raydb/raydb.h"

namespace raydb::bench {

struct SsbJobOptions {
  std::string dir;          // the SSB database (generated there when absent)
  double sf = 1;            // scale factor of a generation, and of the report's title
  QueryOptions query;       // backend and threads
  int reps = 3;             // timed repetitions per query, after one warm-up
  bool quiet = false;       // the timing table only
};

void run_ssb_job(const SsbJobOptions& options);

}  // namespace raydb::bench
