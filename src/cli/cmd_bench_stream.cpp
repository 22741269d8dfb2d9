// raydb bench stream: the 13 SSB queries streamed through the GPU with the memory limit
// at a fraction of each query's columns (bench/stream_bench).
#include <fmt/format.h>

#include "bench/stream_bench.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

void register_bench_stream(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "stream", "SSB queries streamed through the GPU with gpu_memory_limit at a fraction of each query's columns");
  auto a = std::make_shared<bench::StreamBenchOptions>();
  cmd->add_option("--db", a->dir, "SSB database directory")->required();
  cmd->add_option("--fraction", a->fraction, "gpu_memory_limit as a fraction of each query's columns (default 0.25)");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query and mode (default 5)");
  cmd->add_option("--queries", a->only_text, "Comma-separated subset, e.g. q1.1,q4.3");
  cmd->add_option("--json", a->json, "Write one JSON object per query to FILE");
  cmd->callback([a]() {
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (!(a->fraction > 0 && a->fraction < 1)) fail(ErrorKind::kInvalidInput, "--fraction must be between 0 and 1");
    bench::run_stream_bench(*a);
  });
}

}  // namespace raydb::cli
