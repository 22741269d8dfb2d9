// raydb bench keysets: the host steps around a semi / anti join's key set at TPC-H
// sizes (bench/key_set_bench.h), without a device.
#include "bench/key_set_bench.h"
#include "cli/commands.h"

namespace raydb::cli {

void register_bench_keysets(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("keysets", "Host steps of key-set (semi / anti join) blocks at TPC-H sizes");
  auto o = std::make_shared<bench::KeySetBenchOptions>();
  cmd->add_option("--orders", o->orders, "Order keys in the key column (default 30000000: SF 20)");
  cmd->add_option("--keys", o->keys, "Keys in the set (default 1340000: q21's at SF 20)");
  cmd->add_option("--reps", o->reps, "Timed runs per step (default 5)");
  cmd->add_option("--seed", o->seed, "Random seed of the sets (default 21)");
  cmd->callback([o]() { bench::run_key_set_bench(*o); });
}

}  // namespace raydb::cli
