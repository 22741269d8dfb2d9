#pragma once
// One client connection, from the startup packet to Terminate: SSL/GSS requests
// answered 'N', protocol 3.0 (newer minor versions negotiated down), authentication
// (credentials.h's policy), then the simple and extended query protocols on a raydb
// Connection of its own.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "raydb/raydb.h"
#include "server/backend_messages.h"
#include "server/client_socket.h"
#include "server/credentials.h"
#include "server/statement_runner.h"

namespace raydb::server {

// What every session of one server shares.
struct SessionContext {
  Database& db;
  const Credentials& credentials;
  QueryOptions options;  // each session's Connection starts from these
  std::function<void(int32_t pid, int32_t secret)> cancel;  // a CancelRequest arrived
  std::string server_version;
};

class Session {
 public:
  Session(SessionContext& context, int fd, int wake_fd, bool unix_socket, int32_t pid, bool over_limit);
  // Serves the connection until it ends; never throws.
  void run();
  // CancelRequest from another connection: the running statement stops at the
  // executors' next check, and the statements not yet started in this session's
  // current Query or Execute do not run (57014). A write is committed whole or not at all.
  void cancel(int32_t secret);
  int32_t pid() const { return pid_; }

 private:
  struct Prepared {
    std::string sql;
    std::vector<int32_t> param_oids;  // as Parse gave them (0: unspecified)
    int param_count = 0;
  };
  struct Portal {
    std::string sql;
    bool ran = false;
    Outcome outcome;
    size_t sent = 0;  // rows sent by Execute so far
  };

  bool startup();
  bool authenticate(const std::string& user);
  void greet(const std::map<std::string, std::string>& params);
  void serve();
  bool read_message(char& type, std::string& body);
  void dispatch(char type, const std::string& body);
  void simple_query(const std::string& text);
  void parse(MessageReader& m);
  void bind(MessageReader& m);
  void describe(MessageReader& m);
  void execute(MessageReader& m);
  void close(MessageReader& m);
  void sync();
  void run_portal(Portal& p);
  void send_rows(const QueryResult& r, size_t begin, size_t end);
  void send_side_messages(const Outcome& o);
  void check_cancel();
  void flush();
  void fail(const SqlError& e);
  void step(const std::function<void()>& f);

  SessionContext& context_;
  ClientSocket socket_;
  BackendMessages out_;
  bool unix_socket_;
  int32_t pid_;
  int32_t secret_ = 0;
  bool over_limit_;
  std::unique_ptr<StatementRunner> runner_;
  std::map<std::string, Prepared> prepared_;
  std::map<std::string, Portal> portals_;
  bool skip_to_sync_ = false;  // an extended-query error: discard messages until Sync
  // Set by cancel(); the running statement's QueryOptions::cancel (common/cancel.h).
  std::shared_ptr<std::atomic<bool>> cancel_requested_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace raydb::server
