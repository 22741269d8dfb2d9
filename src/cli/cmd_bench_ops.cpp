// raydb bench ops: order statistics (median, quantile, k-th value) per selection
// algorithm and device (bench/ops_bench).
#include <sstream>

#include "bench/ops_bench.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

void register_bench_ops(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("ops", "Order statistics: median / quantile / k-th of random integers per algorithm");
  struct Args {
    std::string n = "100000000", bits = "32", algorithms = "bitwise,radix,sort", devices = "cpu", sel = "1", spec = "median",
                json;
    uint32_t groups = 1;
    int reps = 5, warmup = 1, threads = 0;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--n", a->n, "Comma-separated row counts (default 100000000)");
  cmd->add_option("--key-bits", a->bits, "32 (INTEGER) and/or 64 (BIGINT) (default 32)");
  cmd->add_option("--algorithms", a->algorithms, "bitwise, radix, sort (default all)");
  cmd->add_option("--devices", a->devices, "cpu and/or cuda (default cpu)");
  cmd->add_option("--selectivity", a->sel, "Fractions of rows a WHERE mask keeps (default 1: no mask)");
  cmd->add_option("--groups", a->groups, "Random groups (default 1)");
  cmd->add_option("--spec", a->spec, "median, q=<0..1> (quantile_disc) or k=<n> (kth_smallest) (default median)");
  cmd->add_option("--reps", a->reps, "Timed repetitions (default 5)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs first (default 1)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--json", a->json, "Append JSON lines to FILE");
  cmd->callback([a]() {
    bench::OpsBenchOptions o;
    o.sizes = comma_numbers<uint64_t>(a->n, "--n");
    o.key_bits = comma_numbers<int>(a->bits, "--key-bits");
    o.algorithms = comma_words(a->algorithms);
    o.devices = comma_words(a->devices);
    o.selectivities = comma_numbers<double>(a->sel, "--selectivity");
    o.groups = a->groups;
    o.spec = a->spec;
    o.reps = a->reps;
    o.warmup = a->warmup;
    o.threads = a->threads;
    o.json = a->json;
    for (int b : o.key_bits)
      if (b != 32 && b != 64) fail(ErrorKind::kInvalidInput, "--key-bits takes 32 or 64, got {}", b);
    bench::run_ops_bench(o);
  });
}

}  // namespace raydb::cli
