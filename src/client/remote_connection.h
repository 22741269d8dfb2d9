#pragma once
// A session on a running `raydb serve` (or any PostgreSQL-protocol server) through
// libpq, returning the same QueryResult as an in-process Connection, so that the
// shell prints both alike.
#include <memory>
#include <string>

#include "raydb/raydb.h"

namespace raydb::client {

class RemoteConnection {
 public:
  // `target`: a libpq connection string or URL ("postgresql://user@host:port/db",
  // "host=... port=..."), or host:port. Throws raydb::Error (kIO) with libpq's reason;
  // kNotImplemented when raydb was built without libpq.
  static std::unique_ptr<RemoteConnection> connect(const std::string& target);
  ~RemoteConnection();

  // Runs one statement; an error is a raydb::Error carrying the server's message.
  QueryResult query(const std::string& sql);
  // Asks the server to cancel the statement running on this connection (a
  // CancelRequest); its query() then fails with Error(kCancelled). Safe to call from a
  // signal handler or another thread (libpq's PQcancel); does nothing when idle.
  void cancel_running() noexcept;

 private:
  struct Impl;
  explicit RemoteConnection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "host:port" -> a libpq connection string; other text is passed on unchanged.
std::string connection_string(const std::string& target);

}  // namespace raydb::client
