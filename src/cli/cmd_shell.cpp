// raydb shell: an interactive SQL prompt with line editing, history and completion
// (readline); the session itself is cli/shell/shell_session.
#include <unistd.h>

#include <string>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/shell/interrupt.h"
#include "cli/shell/shell_session.h"
#include "client/remote_connection.h"
#include "common/error.h"

namespace raydb::cli {

namespace {

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
    std::string dir, db, server, backend = "auto", format = "table";
    int threads = 0;
    std::vector<std::string> settings;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("dir", a->dir, "Database directory (as --db)");
  cmd->add_option("--db", a->db, "Database directory (or --server)");
  cmd->add_option("--server", a->server,
                  "A running raydb serve: host:port, or a libpq URL / connection string (postgresql://user@host:port/db)");
  cmd->add_flag("--create", a->create, "Create an empty database when the directory is missing or empty");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt");
  cmd->add_option("--format", a->format, "table | csv | tsv | json | jsonl | markdown (.mode in the shell)");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--set", a->settings, "name=value: a setting for this connection (repeatable; SET in SQL)")
      ->allow_extra_args(false);
  cmd->callback([a]() {
    QueryOptions opts;
    opts.backend = parse_backend(a->backend);
    opts.threads = a->threads;
    apply_settings(a->settings, opts);
    opts.cancel = shell::Interrupt::statement_flag();  // Ctrl-C cancels the running statement
    if (a->server.empty()) start_gpu_warmup_for(opts, /*one_shot=*/false);
    if (!a->dir.empty()) {
      if (!a->db.empty()) fail(ErrorKind::kInvalidInput, "give the database once: as DIR or with --db, not both");
      a->db = a->dir;
    }
    std::unique_ptr<Database> db;
    std::unique_ptr<Connection> local;  // SET in the session changes its settings
    std::unique_ptr<client::RemoteConnection> remote;
    if (a->db.empty() == a->server.empty()) fail(ErrorKind::kInvalidInput, "give one of DIR, --db DIR or --server HOST:PORT");
    if (!a->server.empty()) {
      remote = client::RemoteConnection::connect(a->server);
      for (const std::string& set : session_sets(*a)) remote->query(set);  // the options, as SET statements
    } else {
      db = open_database(a->db, a->create);
      local = std::make_unique<Connection>(*db, opts);
    }
    const bool tty = isatty(STDIN_FILENO);
    shell::ShellSession session(db.get(), local.get(), remote.get(), tty);
    // --format keeps its old names (table, csv, json); .mode takes the rest.
    session.printer().mode = shell::parse_shell_mode(a->format);
    const bool ok = session.run(remote ? a->server : a->db);
    // A piped session that hit an error exits non-zero (the error is already printed).
    if (!ok && !tty) throw ExitStatus{1};
  });
}

}  // namespace raydb::cli
