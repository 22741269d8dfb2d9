// Session: startup, authentication, the message loop and the simple query protocol
// (the extended query protocol is in session_extended.cpp).
#include "server/session.h"

#include <openssl/rand.h>

#include "server/scram_sha256.h"

namespace raydb::server {

namespace {

constexpr int32_t kProtocol30 = 196608;  // 3.0
constexpr int32_t kSslRequest = 80877103, kGssRequest = 80877104, kCancelRequest = 80877102;
constexpr int32_t kMaxMessage = 1 << 30;
constexpr size_t kFlushBytes = 1 << 20;

}  // namespace

Session::Session(SessionContext& context, int fd, int wake_fd, bool unix_socket, int32_t pid, bool over_limit)
    : context_(context), socket_(fd, wake_fd), unix_socket_(unix_socket), pid_(pid), over_limit_(over_limit) {
  RAND_bytes(reinterpret_cast<unsigned char*>(&secret_), sizeof secret_);
}

void Session::cancel(int32_t secret) {
  if (secret == secret_) *cancel_requested_ = true;
}

void Session::run() {
  struct CloseAtEnd {  // the listener may keep this object a while; the client must not wait for that
    ClientSocket& s;
    ~CloseAtEnd() { s.close(); }
  } close_at_end{socket_};
  try {
    if (!startup()) return;
    serve();
  } catch (const ConnectionClosed&) {
  } catch (const ProtocolError& e) {
    try {
      out_.error(SqlError{"08P01", e.message, true});
      flush();
    } catch (const ConnectionClosed&) {
    }
  } catch (const std::exception& e) {  // never take the server down with one session
    try {
      out_.error(SqlError{"XX000", std::string("internal: ") + e.what(), true});
      flush();
    } catch (const ConnectionClosed&) {
    }
  }
}

void Session::flush() {
  if (out_.buffer().empty()) return;
  socket_.write_all(out_.buffer());
  out_.buffer().clear();
}

// Startup packets until the StartupMessage: SSL and GSS encryption are declined ('N';
// the client goes on in plain text or gives up, as its sslmode says).
bool Session::startup() {
  for (;;) {
    char head[8];
    socket_.read_exact(head, 8);
    MessageReader h(std::string_view(head, 8));
    const int32_t len = h.int32(), code = h.int32();
    if (len < 8 || len > 10000) throw ProtocolError{"invalid startup packet length"};
    std::string body(size_t(len - 8), '\0');
    socket_.read_exact(body.data(), body.size());
    if (code == kSslRequest || code == kGssRequest) {
      socket_.write_all("N");
      continue;
    }
    MessageReader m(body);
    if (code == kCancelRequest) {
      const int32_t pid = m.int32(), secret = m.int32();
      context_.cancel(pid, secret);
      return false;
    }
    if ((code >> 16) != 3) throw ProtocolError{"unsupported frontend protocol " + std::to_string(code >> 16) + "." +
                                               std::to_string(code & 0xffff) + ": raydb serves 3.0"};
    std::map<std::string, std::string> params;
    std::vector<std::string> unknown;
    for (std::string key = m.cstring(); !key.empty(); key = m.cstring()) {
      std::string value = m.cstring();
      if (key.rfind("_pq_.", 0) == 0) unknown.push_back(key);
      params[key] = std::move(value);
    }
    if (code != kProtocol30 || !unknown.empty()) out_.negotiate_protocol(0, unknown);
    if (over_limit_) {
      out_.error(SqlError{"53300", "sorry, too many clients already", true});
      flush();
      return false;
    }
    if (params["user"].empty()) {
      out_.error(SqlError{"28000", "no PostgreSQL user name specified in startup packet", true});
      flush();
      return false;
    }
    if (!authenticate(params["user"])) return false;
    greet(params);
    return true;
  }
}

// Credentials' policy: SCRAM-SHA-256 over TCP when there are passwords, else trust.
bool Session::authenticate(const std::string& user) {
  if (!context_.credentials.has_passwords() || unix_socket_) {
    out_.authentication(0);
    return true;
  }
  out_.authentication(10, std::string("SCRAM-SHA-256\0\0", 15));
  flush();
  char type;
  std::string body;
  if (!read_message(type, body) || type != 'p') throw ProtocolError{"expected a SASLInitialResponse"};
  MessageReader first(body);
  if (first.cstring() != "SCRAM-SHA-256") throw ProtocolError{"unsupported SASL mechanism (raydb offers SCRAM-SHA-256)"};
  const int32_t n = first.int32();
  if (n < 0) throw ProtocolError{"SASLInitialResponse without data"};
  ScramExchange scram(context_.credentials.verifier(user));
  out_.authentication(11, scram.server_first(std::string(first.bytes(size_t(n)))));
  flush();
  if (!read_message(type, body) || type != 'p') throw ProtocolError{"expected a SASLResponse"};
  const std::optional<std::string> final_message = scram.server_final(body);
  if (!final_message || !context_.credentials.known(user)) {
    out_.error(SqlError{"28P01", "password authentication failed for user \"" + user + "\"", true});
    flush();
    return false;
  }
  out_.authentication(12, *final_message);
  out_.authentication(0);
  return true;
}

// After authentication: the parameters psql and drivers read, the key for
// CancelRequest, and the first ReadyForQuery.
void Session::greet(const std::map<std::string, std::string>& params) {
  QueryOptions options = context_.options;
  options.cancel = cancel_requested_;  // a CancelRequest stops the running statement too
  runner_ = std::make_unique<StatementRunner>(context_.db, options);
  auto app = params.find("application_name");
  const std::pair<const char*, std::string> status[] = {
      {"server_version", context_.server_version},
      {"server_encoding", "UTF8"},
      {"client_encoding", "UTF8"},
      {"DateStyle", "ISO, MDY"},
      {"IntervalStyle", "postgres"},
      {"TimeZone", "UTC"},
      {"integer_datetimes", "on"},
      {"standard_conforming_strings", "on"},
      {"is_superuser", "off"},
      {"session_authorization", params.at("user")},
      {"application_name", app == params.end() ? "" : app->second},
  };
  for (auto& [name, value] : status) out_.parameter_status(name, value);
  out_.backend_key(pid_, secret_);
  out_.ready_for_query('I');
}

bool Session::read_message(char& type, std::string& body) {
  socket_.read_exact(&type, 1);
  char len_bytes[4];
  socket_.read_exact(len_bytes, 4);
  const int32_t len = MessageReader(std::string_view(len_bytes, 4)).int32();
  if (len < 4 || len > kMaxMessage) throw ProtocolError{"invalid message length"};
  body.assign(size_t(len - 4), '\0');
  socket_.read_exact(body.data(), body.size());
  return true;
}

void Session::serve() {
  std::string body;
  for (;;) {
    flush();
    if (!socket_.wait_for_client()) {  // the server is shutting down: between messages, so nothing is lost
      out_.error(SqlError{"57P01", "terminating connection due to administrator command", true});
      flush();
      return;
    }
    char type;
    read_message(type, body);
    if (type == 'X') return;
    dispatch(type, body);
  }
}

void Session::dispatch(char type, const std::string& body) {
  MessageReader m(body);
  if (skip_to_sync_ && type != 'S') return;  // an error in this extended-query batch
  switch (type) {
    case 'Q': simple_query(m.cstring()); return;
    case 'P': parse(m); return;
    case 'B': bind(m); return;
    case 'D': describe(m); return;
    case 'E': execute(m); return;
    case 'C': close(m); return;
    case 'S': sync(); return;
    case 'H': flush(); return;
    case 'd':
    case 'c':
    case 'f': return;  // COPY data outside a COPY: ignored, as PostgreSQL does
    default: throw ProtocolError{std::string("unsupported message type '") + type + "'"};
  }
}

void Session::check_cancel() {
  if (cancel_requested_->exchange(false)) throw SqlError{"57014", "canceling statement due to user request"};
}

void Session::send_side_messages(const Outcome& o) {
  for (const std::string& n : o.notices) out_.notice(n);
  for (auto& [name, value] : o.reported) out_.parameter_status(name, value);
}

void Session::send_rows(const QueryResult& r, size_t begin, size_t end) {
  constexpr size_t kChunk = 4096;
  for (size_t b = begin; b < end; b += kChunk) {
    out_.data_rows(r, b, std::min(end, b + kChunk));
    if (out_.buffer().size() >= kFlushBytes) flush();
  }
}

// Query: one or more statements; the first error ends the message (the rest do not
// run), as in PostgreSQL's implicit transaction.
void Session::simple_query(const std::string& text) {
  *cancel_requested_ = false;
  SqlScript script = split_sql_script(text);
  if (!script.rest.empty()) script.statements.push_back(script.rest);
  if (script.statements.empty()) out_.empty('I');
  try {
    for (const std::string& sql : script.statements) {
      check_cancel();
      const Outcome o = runner_->run(sql);
      send_side_messages(o);
      if (o.has_rows) {
        out_.row_description(o.result);
        send_rows(o.result, 0, o.result.row_count());
      }
      out_.command_complete(o.tag);
    }
  } catch (const Error& e) {
    out_.error(sql_error_for(e));
  } catch (const SqlError& e) {
    out_.error(e);
  } catch (const std::exception& e) {
    out_.error(SqlError{"XX000", std::string("internal: ") + e.what()});
  }
  out_.ready_for_query(runner_->transaction_status());
}

}  // namespace raydb::server
