// raydb query: run SQL statements (one, or a script) against a database directory.
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/timing_report.h"
#include "common/stage_times.h"

namespace raydb::cli {

void register_query(CLI::App& app) {
  auto* cmd = app.add_subcommand("query", "Run SQL statements (one, or a script separated by ';') and print their results");
  struct Args {
    bool create = false;
    std::string db, backend = "auto", format = "table", file;
    std::vector<std::string> positional;  // [DIR] SQL
    int threads = 0;
    std::vector<std::string> settings;
    bool timing = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "Database directory (or DIR, the first argument)");
  cmd->add_flag("--create", a->create, "Create an empty database when the directory is missing or empty");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--format", a->format, "table | csv | json");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--set", a->settings, "name=value: a setting for this connection (repeatable; SET in SQL)")
      ->allow_extra_args(false);
  cmd->add_option("-f,--file", a->file, "Read the SQL from FILE ('-': standard input)");
  cmd->add_flag("--timing", a->timing,
                "Print the execution time and the end-to-end breakdown by stage (with page faults and bytes) on stderr");
  cmd->add_option("args", a->positional, "[DIR] SQL: the database directory (unless --db) and the SQL statement");
  cmd->callback([a]() {
    QueryOptions opts;
    opts.backend = parse_backend(a->backend);
    opts.threads = a->threads;
    apply_settings(a->settings, opts);
    OutputFormat fmt = parse_output_format(a->format);
    if (a->threads < 0) fail(ErrorKind::kInvalidInput, "--threads must be >= 0");
    start_gpu_warmup_for(opts, /*one_shot=*/true);
    // `raydb query DIR "sql"` as `raydb query --db DIR "sql"` (as `duckdb file.db` takes it).
    std::vector<std::string> args = a->positional;
    if (a->db.empty()) {
      if (args.size() < (a->file.empty() ? 2u : 1u)) fail(ErrorKind::kInvalidInput, "give the database and the SQL: raydb query DIR \"SQL\" (or --db DIR, or -f FILE)");
      a->db = args.front();
      args.erase(args.begin());
    }
    if (args.size() > 1)
      fail(ErrorKind::kInvalidInput, "too many arguments: '{}' (quote the SQL as one argument)", args[1]);
    std::string sql = read_sql(args.empty() ? std::string() : args[0], a->file);
    // A script runs statement by statement in one connection (SET applies to the
    // rest); the first error stops it. A final statement needs no ';'.
    SqlScript script = split_sql_script(sql);
    if (!script.rest.empty()) script.statements.push_back(std::move(script.rest));
    std::optional<TimingReport> report;
    if (a->timing) report.emplace();
    std::unique_ptr<Database> db;
    {
      StageScope stage(Stage::kOpen);
      db = open_database(a->db, a->create);
    }
    Connection conn(*db, opts);
    for (const std::string& statement : script.statements) {
      QueryResult r = conn.query(statement);
      {
        StageScope stage(Stage::kFormat);
        if (!r.explain.empty() && fmt == OutputFormat::kTable) {
          std::fputs(r.explain.c_str(), stdout);
        } else {
          print_result(r, fmt);
        }
        std::fflush(stdout);
      }
      if (report) report->print(r.elapsed_ms, r.backend, r.device_ms);
    }
  });
}

}  // namespace raydb::cli
