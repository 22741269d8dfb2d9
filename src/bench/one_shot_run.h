#pragma once
// One-shot runs for `raydb bench ssb --one-shot N`: each query in a fresh `raydb query
// --timing` process (this same binary), as a user running it once would wait, with the
// breakdown that process prints (common/stage_times.h) read back from its stderr.
#include <map>
#include <string>
#include <vector>

namespace raydb::bench {

struct OneShotRun {
  double end_to_end_ms = 0;  // process start to result printed, as the child measured it
  double wall_ms = 0;        // spawn to exit, as the parent measured it
  std::string backend;       // the backend that ran it
  std::map<std::string, double> stage_ms;
  double kernels_ms = -1;    // CUDA-event time of its kernels (-1: not a GPU run)
  std::map<std::string, unsigned long long> bytes;  // read_at_open, column_files_read, needed, to_device
  std::string csv;           // the result as CSV (header line first)
};

// Runs `sql` in a fresh process of this binary against database `db`; throws
// Error(kExecution) with the child's last error line when it fails.
OneShotRun run_one_shot(const std::string& db, const std::string& sql, const std::string& backend, int threads);

}  // namespace raydb::bench
