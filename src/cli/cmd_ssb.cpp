// raydb ssb: the main job. Generates SSB at SF 1 when absent, runs the 13 queries on
// the best available backend, prints each result and a timing table.
#include <cstdio>

#include "cli/commands.h"
#include "cli/ssb_runner.h"

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
    QueryOptions opts;
    opts.backend = parse_backend(a->backend);
    opts.threads = a->threads;
    std::string dir = a->db.empty() ? fmt::format("data/ssb-sf{}", a->sf) : a->db;
    Database db(ensure_ssb_database(dir, a->sf, 19920101, a->threads));
    auto timings = run_ssb_queries(db, opts, 1, a->reps, {});
    if (!a->quiet) {
      for (auto& t : timings) {
        std::printf("-- %s\n", t.name.c_str());
        std::string s = format_result(t.first, OutputFormat::kTable);
        std::fputs(s.c_str(), stdout);
      }
    }
    std::printf("\nSSB SF %g on %s backend (%s), median of %d after 1 warm-up:\n", a->sf,
                timings.empty() ? "?" : timings[0].first.backend.c_str(), dir.c_str(), a->reps);
    std::printf("%-6s %8s %10s\n", "query", "rows", "median_ms");
    double sum = 0;
    for (auto& t : timings) {
      std::printf("%-6s %8zu %10.2f%s\n", t.name.c_str(), t.rows, t.median_ms, t.verified ? "" : "  (NOT VERIFIED)");
      sum += t.median_ms;
    }
    std::printf("%-6s %8s %10.2f\n", "total", "", sum);
  });
}

}  // namespace raydb::cli
