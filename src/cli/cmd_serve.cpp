// raydb serve: one process that keeps a database open (tables and GPU columns stay
// cached between queries) and speaks the PostgreSQL wire protocol (server/).
#include <unistd.h>

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "common/error.h"
#include "raydb/build_config.h"
#include "server/listener.h"

namespace raydb::cli {

namespace {

server::Listener* g_listener = nullptr;  // for the signal handler

void on_stop_signal(int) {
  if (g_listener) g_listener->stop();
}

// Each --allow-dir must be an existing directory; kept as given (the check resolves
// it again at each access).
std::vector<std::string> allowed_dirs(const std::vector<std::string>& dirs) {
  for (const std::string& d : dirs)
    if (!std::filesystem::is_directory(d)) fail(ErrorKind::kInvalidInput, "--allow-dir {}: not a directory", d);
  return dirs;
}

}  // namespace

void register_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Serve a database over the PostgreSQL wire protocol (psql, psycopg, JDBC)");
  struct Args {
    bool create = false;
    std::string db, backend = "auto", host = "127.0.0.1", socket_dir, password_file;
    int port = 5432, threads = 0, max_connections = 64;
    std::vector<std::string> allow_dirs, settings;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "Database directory")->required();
  cmd->add_flag("--create", a->create, "Create an empty database when the directory is missing or empty");
  cmd->add_option("--host", a->host, "Address to listen on (default 127.0.0.1; others need --password-file)");
  cmd->add_option("--port", a->port, "TCP port (default 5432; 0: any free port, printed at start)");
  cmd->add_option("--socket-dir", a->socket_dir, "Also listen on DIR/.s.PGSQL.PORT (trusted, mode 0600)");
  cmd->add_option("--password-file", a->password_file, "user:password lines; TCP clients then use SCRAM-SHA-256");
  cmd->add_option("--allow-dir", a->allow_dirs, "A directory COPY may read and write (repeatable; none: no file access)")
      ->allow_extra_args(false);
  cmd->add_option("--max-connections", a->max_connections, "Concurrent clients (default 64)");
  cmd->add_option("--backend", a->backend, "auto | cpu | cuda | rt (each session's default)");
  cmd->add_option("--threads", a->threads, "CPU threads per query (0: all)");
  cmd->add_option("--set", a->settings, "name=value: a setting for every session (repeatable)")->allow_extra_args(false);
  cmd->callback([a]() {
    if (a->port < 0 || a->port > 65535) fail(ErrorKind::kInvalidInput, "--port {} is not a TCP port", a->port);
    if (a->max_connections < 1) fail(ErrorKind::kInvalidInput, "--max-connections must be at least 1");
    server::ListenOptions o;
    o.host = a->host;
    o.port = a->port;
    o.socket_dir = a->socket_dir;
    o.max_connections = a->max_connections;
    o.query_options.backend = parse_backend(a->backend);
    o.query_options.threads = a->threads;
    // The server keeps columns on the GPU between queries, so `auto` does not weigh
    // moving them there (a --set transfer_cost=on overrides it).
    o.query_options.settings.set("transfer_cost", "off");
    apply_settings(a->settings, o.query_options);
    o.server_version = "16.0 (raydb " RAYDB_VERSION ")";
    server::Credentials credentials =
        a->password_file.empty() ? server::Credentials() : server::Credentials::from_file(a->password_file);
    auto db = open_database(a->db, a->create);
    db->set_file_access(FileAccess{true, allowed_dirs(a->allow_dirs)});
    server::Listener listener(*db, std::move(credentials), o);
    listener.start();
    g_listener = &listener;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    std::printf("raydb serve: database %s on %s port %d%s%s\n", a->db.c_str(), a->host.c_str(), listener.port(),
                listener.socket_path().empty() ? "" : ", socket ", listener.socket_path().c_str());
    std::fflush(stdout);
    listener.serve();
    g_listener = nullptr;
    std::printf("raydb serve: stopped\n");
    std::fflush(stdout);
  });
}

}  // namespace raydb::cli
