// raydb bench ops: order statistics (median, quantile, k-th value) per selection
// algorithm and device (bench/ops_bench), or with --suite predicates the paper's
// predicate experiments through SQL (bench/predicate_bench).
#include <sstream>

#include "bench/ops_bench.h"
#include "bench/predicate_bench.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

void register_bench_ops(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "ops", "The 2004 paper's operations: order statistics per algorithm, or (--suite predicates) scans");
  struct Args {
    std::string suite = "order", db;
    std::string n = "100000000", bits = "32", algorithms = "bitwise,radix,sort", devices = "cpu", sel = "1", spec = "median",
                json;
    uint32_t groups = 1;
    int reps = 5, warmup = 1, threads = 0;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--suite", a->suite, "order (order statistics, default) or predicates (SQL scans on table ops)");
  cmd->add_option("--db", a->db, "predicates: database directory (table ops generated when missing)");
  cmd->add_option("--n", a->n, "Comma-separated row counts (default 100000000; predicates: the first)");
  cmd->add_option("--key-bits", a->bits, "32 (INTEGER) and/or 64 (BIGINT) (default 32)");
  cmd->add_option("--algorithms", a->algorithms, "bitwise, radix, radix-general (GPU: general pass kernel only), sort (default bitwise,radix,sort)");
  cmd->add_option("--devices", a->devices, "cpu and/or cuda (default cpu)");
  auto* sel_opt = cmd->add_option("--selectivity", a->sel,
                                  "Fractions of rows a WHERE mask keeps (default 1: no mask; predicates: "
                                  "0.01,0.1,0.5,0.9,1)");
  cmd->add_option("--groups", a->groups, "Random groups (default 1)");
  cmd->add_option("--spec", a->spec, "median, q=<0..1> (quantile_disc) or k=<n> (kth_smallest) (default median)");
  cmd->add_option("--reps", a->reps, "Timed repetitions (default 5)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs first (default 1)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--json", a->json, "Append JSON lines to FILE");
  cmd->callback([a, sel_opt]() {
    if (a->suite == "predicates") {
      bench::PredicateBenchOptions p;
      p.db = a->db;
      p.rows = comma_numbers<uint64_t>(a->n, "--n").at(0);
      if (sel_opt->count() > 0) p.selectivities = comma_numbers<double>(a->sel, "--selectivity");
      p.devices = comma_words(a->devices);
      p.reps = a->reps;
      p.warmup = a->warmup;
      p.json = a->json;
      bench::run_predicate_bench(p);
      return;
    }
    if (a->suite != "order") fail(ErrorKind::kInvalidInput, "--suite takes order or predicates, got '{}'", a->suite);
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
