// raydb bench scan: the RTScan experiments on raydb's RT scan access method
// (bench/scan_bench).
#include "bench/scan_bench.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "common/settings.h"

namespace raydb::cli {

void register_bench_scan(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "scan", "RT scan (RTScan): conjunctive < predicates on uint32 columns per method, checked against brute force");
  struct Args {
    std::string datasets = "uniform,zipf1.5", files, metas, sel = "0.01,0.1,0.5,0.9,1", preds = "3",
                methods = "rt-cpu,cpu-scan,cpu-sieve", groups, json;
    double rows = 1e8;
    uint32_t bins = 128;
    int cell_shift = -1;
    uint32_t segment_cells = 0;
    int reps = 3, warmup = 1;
    double adaptive_margin = Settings().rt_scan_adaptive_margin();
    uint64_t seed = 42;
    bool no_check = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--rows", a->rows, "Rows per generated dataset (default 1e8)");
  cmd->add_option("--datasets", a->datasets, "uniform, zipf1.1, zipf1.3, zipf1.5, normal, small (default uniform,zipf1.5)");
  cmd->add_option("--file", a->files, "Comma-separated data files in the RTScan artifact's layout (3 uint32 columns, "
                                      "column-major) instead of generated data");
  cmd->add_option("--meta", a->metas, "The artifact kit's <ds>.meta.json per --file (thresholds, expected counts)");
  cmd->add_option("--selectivity", a->sel, "Per-column selectivities (default 0.01,0.1,0.5,0.9,1)");
  cmd->add_option("--predicates", a->preds, "Predicates per query, 1..6 (default 3)");
  cmd->add_option("--methods", a->methods, "rt-cpu, cpu-scan, cpu-sieve, rt-gpu, gpu-scan, gpu-sieve");
  cmd->add_option("--bins", a->bins, "Sieving bins per column (default 128)");
  cmd->add_option("--cell-shift", a->cell_shift, "RT cells of 2^N ranks on every axis (default: about n / 4 cells, the bits shared out over the axes)")
      ->check(CLI::Range(-1, 20));
  cmd->add_option("--segment-cells", a->segment_cells, "RT refine: grid cells per ray segment (default 0: 2 on OptiX, 8 on Embree)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--groups", a->groups, "Column groups of the RT structures, e.g. \"0,1;2,3\" (default triples)");
  cmd->add_option("--reps", a->reps, "Timed repetitions (default 3)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs first (default 1)");
  cmd->add_option("--adaptive-margin", a->adaptive_margin,
                  "The pick per query, replayed over the repetitions as the planner refines it: every method "
                  "within this fraction of the model's pick is timed, near-ties until settled, the fastest measured "
                  "kept (default: the rt_scan_adaptive_margin setting, 0.5; 0: the model alone)")
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--seed", a->seed, "Generator seed (default 42)");
  cmd->add_flag("--no-check", a->no_check, "Skip the brute-force check");
  cmd->add_option("--json", a->json, "Append JSON lines to FILE");
  cmd->callback([a]() {
    bench::ScanBenchOptions o;
    if (!(a->rows >= 1 && a->rows <= 4e9)) fail(ErrorKind::kInvalidInput, "--rows must be in [1, 4e9]");
    o.rows = static_cast<uint64_t>(a->rows);
    o.datasets = comma_words(a->datasets);
    o.files = comma_words(a->files);
    o.metas = comma_words(a->metas);
    o.selectivities = comma_numbers<double>(a->sel, "--selectivity");
    o.predicates = comma_numbers<uint32_t>(a->preds, "--predicates");
    o.methods = comma_words(a->methods);
    o.bins = a->bins;
    o.groups = a->groups;
    o.cell_shift = a->cell_shift;
    o.segment_cells = a->segment_cells;
    o.reps = a->reps;
    o.warmup = a->warmup;
    o.adaptive_margin = a->adaptive_margin;
    o.seed = a->seed;
    o.check = !a->no_check;
    o.json = a->json;
    if (o.reps < 1 || o.warmup < 0) fail(ErrorKind::kInvalidInput, "--reps must be >= 1 and --warmup >= 0");
    bench::run_scan_bench(o);
  });
}

}  // namespace raydb::cli
