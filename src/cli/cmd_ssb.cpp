// raydb ssb: the main job. Generates SSB at SF 1 when absent, runs the 13 queries on
// the best available backend, prints each result and a timing table (bench/ssb_job).
#include "bench/ssb_job.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

void register_ssb(CLI::App& app) {
  auto* cmd = app.add_subcommand("ssb", "Run the Star Schema Benchmark (generates data when absent)");
  struct Args {
    std::string db, backend = "auto";
    double sf = 1;
    int reps = 3, threads = 0;
    bool quiet = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--sf", a->sf, "Scale factor (default 1)");
  cmd->add_option("--db", a->db, "Database directory (default data/ssb-sf<SF>)");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query (default 3)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_flag("--quiet", a->quiet, "Print only the timing table");
  cmd->callback([a]() {
    if (a->sf <= 0) fail(ErrorKind::kInvalidInput, "--sf must be positive");
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    bench::SsbJobOptions o;
    o.query.backend = parse_backend(a->backend);
    o.query.threads = a->threads;
    o.dir = a->db.empty() ? fmt::format("data/ssb-sf{}", a->sf) : a->db;
    o.sf = a->sf;
    o.reps = a->reps;
    o.quiet = a->quiet;
    bench::run_ssb_job(o);
  });
}

}  // namespace raydb::cli
