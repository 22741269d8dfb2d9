#pragma once
// raydb bench scan: the RTScan experiments (PVLDB 17, figures 15-27) on raydb's RT scan
// access method: n rows x c uint32 columns per dataset (generated, or the RTScan
// artifact's data files), `<` predicates on the first 1..4 columns at per-column
// selectivities, every method of the access method (RT refine on Embree or OptiX,
// plain scans, sieving with CPU / CUDA-core refine) timed with the result bit vector
// where it is computed and copied to the host, every answer checked against brute
// force, index build time and memory per index. JSON lines with the machine and GPU.
#include <cstdint>
#include <string>
#include <vector>

namespace raydb::bench {

struct ScanBenchOptions {
  uint64_t rows = 100000000;
  std::vector<std::string> datasets = {"uniform", "zipf1.5"};
  // Instead of generating: the artifact's files (3 uint32 columns, column-major) and,
  // optionally, its meta.json (thresholds used on every column, expected counts).
  std::vector<std::string> files;
  std::vector<std::string> metas;
  std::vector<double> selectivities = {0.01, 0.1, 0.5, 0.9, 1.0};
  std::vector<uint32_t> predicates = {3};
  // rt-cpu (Embree), cpu-scan, cpu-sieve, rt-gpu (OptiX), gpu-scan, gpu-sieve
  std::vector<std::string> methods = {"rt-cpu", "cpu-scan", "cpu-sieve"};
  uint32_t bins = 128;
  std::string groups;  // "0,1,2;3" (RtScanOptions::groups); "" = consecutive triples
  int cell_shift = -1;  // RtScanOptions::cell_shift (-1: the default layout)
  uint32_t segment_cells = 0;  // RtScanOptions::segment_cells (cells per ray segment; 0: the tracer's)
  int reps = 3, warmup = 1;
  // The measured refinement the planner applies (the rt_scan_adaptive_margin setting),
  // replayed on each query's repetitions for its scan-pick line; 0: the model alone.
  double adaptive_margin = 0.5;
  uint64_t seed = 42;
  bool check = true;  // brute-force every answer
  std::string json;   // JSON lines file ("" for none)
};

// Runs every combination; Error(kExecution) when a method's bits differ from brute force.
void run_scan_bench(const ScanBenchOptions& options);

}  // namespace raydb::bench
