// raydb shell: an interactive SQL prompt with line editing and history (readline).
#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "cli/cli_util.h"
#include "client/remote_connection.h"
#include "cli/commands.h"
#include "common/error.h"
#include "raydb/admin.h"

namespace raydb::cli {

namespace {

void print_help() {
  std::puts(
      "Enter SQL statements ending with ';'. Commands:\n"
      "  .tables               list tables\n"
      "  .schema TABLE         columns and types of TABLE\n"
      "  .format table|csv|json\n"
      "  .timing on|off        print execution time after each statement\n"
      "  .help                 this text\n"
      "  .quit                 leave (also Ctrl-D)");
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A shell command other than .quit / .exit; errors are raydb::Error.
// `db` is null in a shell on a server (--server): the catalog commands need a local database.
void run_dot_command(Database* db, const std::string& word, const std::string& rest, OutputFormat& fmt, bool& timing) {
  if (!db && (word == ".tables" || word == ".schema"))
    fail(ErrorKind::kNotImplemented, "{} needs a local database (--db); on a server, query the tables directly", word);
  if (word == ".help") {
    print_help();
  } else if (word == ".tables") {
    for (auto& n : admin::table_names(*db)) std::puts(n.c_str());
  } else if (word == ".schema") {
    auto tbl = admin::describe_table(*db, rest);
    if (!tbl) fail(ErrorKind::kBinder, "unknown table '{}'", rest);
    for (auto& c : tbl->columns) std::printf("%s %s\n", c.name.c_str(), c.type.c_str());
  } else if (word == ".format") {
    fmt = parse_output_format(rest);
  } else if (word == ".timing") {
    timing = rest == "on";
  } else {
    fail(ErrorKind::kInvalidInput, "unknown command {} (.help lists them)", word);
  }
}

// A server session's options from the shell's flags, as SET statements.
template <typename Args>
std::vector<std::string> session_sets(const Args& a) {
  std::vector<std::string> out;
  if (a.backend != "auto") out.push_back("set backend = " + a.backend);
  if (a.threads != 0) out.push_back("set threads = " + std::to_string(a.threads));
  for (const std::string& pair : a.settings) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos) fail(ErrorKind::kInvalidInput, "--set {}: expected name=value", pair);
    out.push_back("set " + pair.substr(0, eq) + " = " + pair.substr(eq + 1));
  }
  return out;
}

}  // namespace

void register_shell(CLI::App& app) {
  auto* cmd = app.add_subcommand("shell", "Interactive SQL shell");
  struct Args {
    bool create = false;
    std::string db, server, backend = "auto", format = "table";
    int threads = 0;
    std::vector<std::string> settings;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "Database directory (or --server)");
  cmd->add_option("--server", a->server,
                  "A running raydb serve: host:port, or a libpq URL / connection string (postgresql://user@host:port/db)");
  cmd->add_flag("--create", a->create, "Create an empty database when the directory is missing or empty");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--format", a->format, "table | csv | json");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--set", a->settings, "name=value: a setting for this connection (repeatable; SET in SQL)")
      ->allow_extra_args(false);
  cmd->callback([a]() {
    QueryOptions opts;
    opts.backend = parse_backend(a->backend);
    opts.threads = a->threads;
    apply_settings(a->settings, opts);
    OutputFormat fmt = parse_output_format(a->format);
    std::unique_ptr<Database> db;
    std::unique_ptr<Connection> local;  // SET in the session changes its settings
    std::unique_ptr<client::RemoteConnection> remote;
    if (a->db.empty() == a->server.empty()) fail(ErrorKind::kInvalidInput, "give one of --db DIR or --server HOST:PORT");
    if (!a->server.empty()) {
      remote = client::RemoteConnection::connect(a->server);
      for (const std::string& set : session_sets(*a)) remote->query(set);  // the options, as SET statements
    } else {
      db = open_database(a->db, a->create);
      local = std::make_unique<Connection>(*db, opts);
    }
    const bool tty = isatty(STDIN_FILENO);
    std::string history;
    if (const char* home = std::getenv("HOME")) history = std::string(home) + "/.raydb_history";
    if (tty && !history.empty()) read_history(history.c_str());
    bool timing = false;
    std::string pending;  // text after the last complete statement
    bool failed = false;
    // Runs one statement; false after printing its error.
    auto run = [&](const std::string& sql) {
      try {
        QueryResult r = remote ? remote->query(sql) : local->query(sql);
        if (!r.explain.empty() && fmt == OutputFormat::kTable)
          std::fputs(r.explain.c_str(), stdout);
        else
          print_result(r, fmt);
        if (timing) std::printf("time: %.3f ms\n", r.elapsed_ms);
        std::fflush(stdout);
        return true;
      } catch (const Error& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "error: %s\n", e.what());
        return false;
      }
    };
    if (tty) std::printf("raydb shell on %s; .help for help\n", (remote ? a->server : a->db).c_str());
    bool at_eof = false;
    while (true) {
      std::string line;
      if (tty) {
        char* raw = readline(pending.empty() ? "raydb> " : "  ...> ");
        if (!raw) break;
        line = raw;
        std::free(raw);
      } else if (!std::getline(std::cin, line)) {
        at_eof = true;
        break;
      }
      std::string t = trim(line);
      if (pending.empty() && !t.empty() && t[0] == '.') {
        if (tty) add_history(line.c_str());
        std::string word = t.substr(0, t.find(' ')), rest = trim(t.substr(word.size()));
        if (word == ".quit" || word == ".exit") break;
        try {
          run_dot_command(db.get(), word, rest, fmt, timing);
        } catch (const Error& e) {
          std::fprintf(stderr, "error: %s\n", e.what());
          failed = true;
        }
        continue;
      }
      // Every statement the line completes runs, in order (`select 2; select 3;`);
      // blank and comment-only statements are no-ops.
      SqlScript script = split_sql_script(pending + line + "\n");
      if (tty && !script.statements.empty()) add_history(trim(pending + line).c_str());
      pending = script.rest;
      for (const std::string& sql : script.statements)
        if (!run(sql)) failed = true;  // the session goes on; the exit status tells
    }
    // Piped input may end without a final ';': that statement runs too.
    if (at_eof && !pending.empty() && !run(pending)) failed = true;
    if (tty && !history.empty()) write_history(history.c_str());
    // A piped session that hit an error exits non-zero (the error is already printed).
    if (failed && !tty) throw ExitStatus{1};
  });
}

}  // namespace raydb::cli
