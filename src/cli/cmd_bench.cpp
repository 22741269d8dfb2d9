// raydb bench ssb | tpch: time the 13 SSB (or 22 TPC-H) queries (warm-up, repetitions, median/min/max),
// verify every repetition against the first run, write JSON lines (bench/ssb_bench).
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
}

void register_bench_ssb(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("ssb", "Time the 13 SSB queries");
  struct Args {
    std::string db, backend = "auto", json, queries;
    double sf = 0;
    int reps = 10, warmup = 1, threads = 0;
    uint64_t seed = 19920101;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "SSB database directory (generated there at --sf when absent)");
  cmd->add_option("--sf", a->sf, "Scale factor (with no --db: data/ssb-sf<SF>)");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query (default 10)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--seed", a->seed, "Generator seed when data is generated");
  cmd->add_option("--queries", a->queries, "Comma-separated subset, e.g. q1.1,q4.3");
  cmd->add_option("--json", a->json, "Write one JSON object per query to FILE");
  cmd->callback([a]() {
    if (a->db.empty() && a->sf <= 0) fail(ErrorKind::kInvalidInput, "bench ssb needs --db DIR or --sf SF");
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    if (a->threads < 0) fail(ErrorKind::kInvalidInput, "--threads must be >= 0");
    bench::SsbBenchOptions o;
    o.query.backend = parse_backend(a->backend);
    o.query.threads = a->threads;
    o.dir = a->db.empty() ? fmt::format("data/ssb-sf{}", a->sf) : a->db;
    o.generate_sf = a->sf > 0 ? a->sf : 1.0;
    o.seed = a->seed;
    o.warmup = a->warmup;
    o.reps = a->reps;
    o.only = split_query_names(a->queries);
    o.json = a->json;
    bench::run_ssb_bench(o);
  });
}

}  // namespace raydb::cli

namespace raydb::cli {

void register_bench_tpch(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("tpch", "Time the 22 TPC-H queries (those raydb rejects are reported as not supported)");
  struct Args {
    std::string db, backend = "auto", json, queries;
    double sf = 0;
    int reps = 10, warmup = 1, threads = 0;
    uint64_t seed = 19920101;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "TPC-H database directory (generated there at --sf when absent)");
  cmd->add_option("--sf", a->sf, "Scale factor (with no --db: data/tpch-sf<SF>)");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--reps", a->reps, "Timed repetitions per query (default 10)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--seed", a->seed, "Generator seed when data is generated");
  cmd->add_option("--queries", a->queries, "Comma-separated subset, e.g. q1,q6");
  cmd->add_option("--json", a->json, "Write one JSON object per query to FILE");
  cmd->callback([a]() {
    if (a->db.empty() && a->sf <= 0) fail(ErrorKind::kInvalidInput, "bench tpch needs --db DIR or --sf SF");
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    if (a->threads < 0) fail(ErrorKind::kInvalidInput, "--threads must be >= 0");
    bench::TpchBenchOptions o;
    o.query.backend = parse_backend(a->backend);
    o.query.threads = a->threads;
    o.dir = a->db.empty() ? fmt::format("data/tpch-sf{}", a->sf) : a->db;
    o.generate_sf = a->sf > 0 ? a->sf : 1.0;
    o.seed = a->seed;
    o.warmup = a->warmup;
    o.reps = a->reps;
    o.only = split_query_names(a->queries);
    o.json = a->json;
    bench::run_tpch_bench(o);
  });
}

}  // namespace raydb::cli
