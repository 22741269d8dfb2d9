// raydb bench ssb | tpch: time the 13 SSB (or 22 TPC-H) queries (warm-up, repetitions, median/min/max),
// verify every repetition against the first run, write JSON lines (bench/ssb_bench).
#include <type_traits>

#include "bench/ssb_bench.h"
#include "bench/tpch_bench.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

namespace {

// --queries: names separated by commas (empty entries kept; they match no query).
std::vector<std::string> split_query_names(const std::string& s) {
  std::vector<std::string> only;
  for (size_t p = 0; !s.empty() && p <= s.size();) {
    size_t c = s.find(',', p);
    if (c == std::string::npos) c = s.size();
    only.push_back(s.substr(p, c - p));
    p = c + 1;
  }
  return only;
}

}  // namespace

void register_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks (JSON lines)");
  bench->require_subcommand(1);
  register_bench_ssb(*bench);
  register_bench_tpch(*bench);
  register_bench_index(*bench);  // cmd_bench_index.cpp
  register_bench_query(*bench);  // cmd_bench_query.cpp
  register_bench_ops(*bench);    // cmd_bench_ops.cpp
  register_bench_scan(*bench);   // cmd_bench_scan.cpp
  register_bench_views(*bench);  // cmd_bench_views.cpp
  register_bench_stream(*bench);  // cmd_bench_stream.cpp
  register_bench_keysets(*bench);  // cmd_bench_keysets.cpp
  register_bench_decode(*bench);   // cmd_bench_decode.cpp
}

namespace {

// `bench ssb` and `bench tpch`: the same options over a query suite, its options type
// and runner (data generated at --sf into data/<suite>-sf<SF> when --db is absent).
template <typename Options>
void register_suite_bench(CLI::App& bench, const char* suite, const char* description, const char* db_what,
                          const char* example, void (*run)(const Options&)) {
  auto* cmd = bench.add_subcommand(suite, description);
  struct Args {
    std::string db, backend = "auto", json, queries;
    double sf = 0;
    int reps = 10, warmup = 1, threads = 0, one_shot = 0;
    uint64_t seed = std::is_same_v<Options, bench::TpchBenchOptions> ? 0 : 19920101;  // TPC-H 0: dbgen's data
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, fmt::format("{} database directory (generated there at --sf when absent{})", db_what,
                                             std::is_same_v<Options, bench::TpchBenchOptions> ? "; an error without --sf" : ""));
  cmd->add_option("--sf", a->sf, fmt::format("Scale factor (with no --db: data/{}-sf<SF>)", suite));
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query (default 10)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--seed", a->seed, "Generator seed when data is generated");
  cmd->add_option("--queries", a->queries, fmt::format("Comma-separated subset, e.g. {}", example));
  cmd->add_option("--json", a->json, "Write one JSON object per query to FILE");
  if constexpr (std::is_same_v<Options, bench::SsbBenchOptions>)
    cmd->add_option("--one-shot", a->one_shot,
                    "Also run each query N times in a fresh `raydb query` process (end to end, with its breakdown)");
  cmd->callback([a, suite, run]() {
    if (a->db.empty() && a->sf <= 0) fail(ErrorKind::kInvalidInput, "bench {} needs --db DIR or --sf SF", suite);
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    if (a->threads < 0) fail(ErrorKind::kInvalidInput, "--threads must be >= 0");
    if (a->one_shot < 0) fail(ErrorKind::kInvalidInput, "--one-shot must be >= 0");
    Options o;
    if constexpr (std::is_same_v<Options, bench::SsbBenchOptions>) o.one_shot = a->one_shot;
    o.query.backend = parse_backend(a->backend);
    o.query.threads = a->threads;
    o.dir = a->db.empty() ? fmt::format("data/{}-sf{}", suite, a->sf) : a->db;
    // TPC-H generates into a missing --db only when --sf names the scale factor.
    if constexpr (std::is_same_v<Options, bench::TpchBenchOptions>)
      o.generate_sf = a->sf;
    else
      o.generate_sf = a->sf > 0 ? a->sf : 1.0;
    o.seed = a->seed;
    o.warmup = a->warmup;
    o.reps = a->reps;
    o.only = split_query_names(a->queries);
    o.json = a->json;
    run(o);
  });
}

}  // namespace

void register_bench_ssb(CLI::App& bench) {
  register_suite_bench<bench::SsbBenchOptions>(bench, "ssb", "Time the 13 SSB queries", "SSB", "q1.1,q4.3",
                                               &bench::run_ssb_bench);
}

void register_bench_tpch(CLI::App& bench) {
  register_suite_bench<bench::TpchBenchOptions>(
      bench, "tpch", "Time the 22 TPC-H queries (those raydb rejects are reported as not supported)", "TPC-H", "q1,q6",
      &bench::run_tpch_bench);
}

}  // namespace raydb::cli
