// raydb bench decode: the host decode of the CUDA star path's results at TPC-H sizes
// (bench/decode_bench.h), without a device.
#include "bench/decode_bench.h"
#include "cli/commands.h"

namespace raydb::cli {

void register_bench_decode(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("decode", "Host decode of GPU star results (groups to rows) at TPC-H sizes");
  auto o = std::make_shared<bench::DecodeBenchOptions>();
  cmd->add_option("--groups", o->groups, "Present groups (default 1340064: q21's subquery block at SF 20)");
  cmd->add_option("--range", o->range, "Group id range (default 120000000: o_orderkey at SF 20)");
  cmd->add_option("--reps", o->reps, "Timed runs per decode (default 5)");
  cmd->add_option("--seed", o->seed, "Random seed of the results (default 4)");
  cmd->callback([o]() { bench::run_decode_bench(*o); });
}

}  // namespace raydb::cli
