// raydb bench query: time SQL queries under several backends and index-path settings
// (bench/query_bench).
#include "bench/query_bench.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

namespace {

// Comma-separated words; empty ones dropped.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  for (size_t p = 0; p <= s.size();) {
    size_t c = s.find(sep, p);
    if (c == std::string::npos) c = s.size();
    if (c > p) out.push_back(s.substr(p, c - p));
    p = c + 1;
  }
  return out;
}

}  // namespace

void register_bench_query(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("query", "Time SQL queries under several backends and index-path settings");
  struct Args {
    std::string db, backends = "auto", index_paths = "cost", json;
    std::vector<std::string> queries;
    int reps = 10, warmup = 1;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "Database directory")->required();
  cmd->add_option("-q,--query", a->queries, "NAME=SQL (repeatable)")->required();
  cmd->add_option("--backends", a->backends, "Comma-separated: auto, cpu, cuda, rt (default auto)");
  cmd->add_option("--index-paths", a->index_paths,
                  "Comma-separated index_paths settings: cost (the cost model), force (an index wherever "
                  "one applies), off (no index) (default cost)");
  cmd->add_option("--reps", a->reps, "Timed repetitions per configuration (default 10)");
  cmd->add_option("--warmup", a->warmup, "Untimed runs before timing (default 1; builds columns and indexes)");
  cmd->add_option("--json", a->json, "Write one JSON object per query and configuration to FILE");
  cmd->callback([a]() {
    if (a->reps < 1) fail(ErrorKind::kInvalidInput, "--reps must be at least 1");
    if (a->warmup < 0) fail(ErrorKind::kInvalidInput, "--warmup must be >= 0");
    bench::QueryBenchOptions o;
    for (auto& q : a->queries) {
      const size_t eq = q.find('=');
      if (eq == std::string::npos || eq == 0) fail(ErrorKind::kInvalidInput, "--query takes NAME=SQL (got '{}')", q);
      o.queries.push_back({q.substr(0, eq), q.substr(eq + 1)});
    }
    for (auto& b : split(a->backends, ',')) o.backends.push_back(parse_backend(b));
    o.index_paths = split(a->index_paths, ',');
    for (auto& s : o.index_paths)
      if (s != "cost" && s != "force" && s != "off")
        fail(ErrorKind::kInvalidInput, "--index-paths takes cost, force or off (got '{}')", s);
    if (o.backends.empty() || o.index_paths.empty())
      fail(ErrorKind::kInvalidInput, "no --backends or --index-paths given");
    o.db = a->db;
    o.reps = a->reps;
    o.warmup = a->warmup;
    o.json = a->json;
    bench::run_query_bench(o);
  });
}

}  // namespace raydb::cli
