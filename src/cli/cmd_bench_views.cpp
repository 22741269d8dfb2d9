// raydb bench views: the 13 SSB queries through RT views against the star path
// (bench/views_bench).
#include <fmt/format.h>

#include "bench/views_bench.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

void register_bench_views(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "views", "The 13 SSB queries through RT views (advised and created when the database has none) vs the star path");
  auto a = std::make_shared<bench::ViewsBenchOptions>();
  auto sf = std::make_shared<double>(0);
  cmd->add_option("--db", a->dir, "SSB database directory (generated there at --sf when absent)");
  cmd->add_option("--sf", *sf, "Scale factor (with no --db: data/ssb-sf<SF>)");
  cmd->add_option("--star", a->star, "Star-path backend: cpu | cuda (default: cuda with a GPU, else cpu)");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query and path (default 5)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1; builds the views)");
  cmd->add_option("--group-limit", a->group_limit, "Group tuples an advised view may have (default: the most a view takes)");
  cmd->add_option("--seed", a->seed, "Generator seed when data is generated");
  cmd->add_option("--json", a->json, "Append one JSON object per view and per query to FILE");
  cmd->callback([a, sf]() {
    if (a->dir.empty() && *sf <= 0) fail(ErrorKind::kInvalidInput, "bench views needs --db DIR or --sf SF");
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    bench::ViewsBenchOptions o = *a;
    if (o.dir.empty()) o.dir = fmt::format("data/ssb-sf{}", *sf);
    o.generate_sf = *sf > 0 ? *sf : 1.0;
    bench::run_views_bench(o);
  });
}

}  // namespace raydb::cli
