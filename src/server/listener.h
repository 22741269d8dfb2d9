#pragma once
// raydb serve's listener: binds the TCP address(es) and the optional Unix socket,
// accepts connections and runs each in a thread of its own (a Session), and shuts
// down cleanly: stop() (async-signal-safe) stops accepting, every session finishes
// the message it is working on (running statements complete) and is told the server
// is going, and serve() returns once all have ended.
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "raydb/raydb.h"
#include "server/credentials.h"
#include "server/session.h"

namespace raydb::server {

struct ListenOptions {
  std::string host = "127.0.0.1";
  int port = 5432;                // 0: any free port (see Listener::port)
  std::string socket_dir;         // empty: no Unix socket
  int max_connections = 64;
  QueryOptions query_options;     // each session's starting options
  std::string server_version = "16.0";
};

class Listener {
 public:
  Listener(Database& db, Credentials credentials, ListenOptions options);
  ~Listener();

  // Binds and listens; throws raydb::Error (kIO, kInvalidInput) with a one-line reason.
  // Without passwords every address must be a loopback one (trust is local only).
  void start();
  int port() const { return port_; }
  std::string socket_path() const { return socket_path_; }
  // Accepts until stop(); then waits for the sessions to end.
  void serve();
  // Safe from a signal handler.
  void stop();

 private:
  struct Worker {
    std::thread thread;
    std::shared_ptr<Session> session;
    std::shared_ptr<std::atomic<bool>> done;
  };

  void bind_tcp();
  void bind_unix();
  void accept_one(int listen_fd, bool unix_socket);
  void reap(bool all);
  void cancel(int32_t pid, int32_t secret);

  Database& db_;
  Credentials credentials_;
  ListenOptions options_;
  SessionContext context_;
  std::vector<int> listen_fds_;
  std::vector<bool> listen_unix_;
  int wake_[2] = {-1, -1};
  int port_ = 0;
  std::string socket_path_;
  int32_t next_pid_ = 1000;
  std::mutex workers_mutex_;
  std::list<Worker> workers_;
};

}  // namespace raydb::server
