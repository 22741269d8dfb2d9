#include "client/remote_connection.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "common/error.h"

#ifdef RAYDB_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace raydb::client {

std::string connection_string(const std::string& target) {
  if (target.find('=') != std::string::npos || target.find("://") != std::string::npos) return target;
  const size_t colon = target.rfind(':');
  if (colon == std::string::npos) return "host=" + target;
  return "host=" + target.substr(0, colon) + " port=" + target.substr(colon + 1);
}

#ifdef RAYDB_HAVE_LIBPQ

namespace {

// PostgreSQL's type of a result column as a raydb type (values arrive as text).
Type type_of(const PGresult* r, int c) {
  switch (PQftype(r, c)) {
    case 16: return Type::boolean();
    case 21:
    case 23: return Type::integer();
    case 20: return Type::bigint();
    case 700:
    case 701: return Type::float64();
    case 1082: return Type::date();
    case 1114: return Type::timestamp();
    case 1700: {
      const int mod = PQfmod(r, c);
      if (mod >= 4) return Type::decimal(((mod - 4) >> 16) & 0xffff, (mod - 4) & 0xffff);
      return Type::hugeint();  // raydb's unconstrained numeric: HUGEINT sums
    }
    default: return Type::varchar();
  }
}

__int128 parse_int128(std::string_view s) {
  bool neg = !s.empty() && s[0] == '-';
  __int128 v = 0;
  for (char ch : s.substr(neg ? 1 : 0)) v = v * 10 + (ch - '0');
  return neg ? -v : v;
}

void append_value(QueryResult::ColumnData& d, const char* text) {
  const std::string_view s(text);
  switch (d.type.id) {
    case TypeId::kBoolean: d.ints.push_back(s == "t"); break;
    case TypeId::kInteger:
    case TypeId::kBigint: d.ints.push_back(std::strtoll(text, nullptr, 10)); break;
    case TypeId::kDouble: d.doubles.push_back(std::strtod(text, nullptr)); break;
    case TypeId::kDate: {
      int32_t days = 0;
      parse_date(s, days);
      d.ints.push_back(days);
      break;
    }
    case TypeId::kTimestamp: {
      int64_t micros = 0;
      parse_timestamp(s, micros);
      d.ints.push_back(micros);
      break;
    }
    case TypeId::kHugeint: d.huge.push_back(parse_int128(s)); break;
    case TypeId::kDecimal: {
      int64_t scaled = 0;
      if (d.type.precision > 18) {
        const size_t dot = s.find('.');
        std::string digits(s.substr(0, dot));
        if (dot != std::string_view::npos) digits += s.substr(dot + 1);
        d.huge.push_back(parse_int128(digits));
      } else {
        parse_decimal(s, d.type.precision, d.type.scale, scaled);
        d.ints.push_back(scaled);
      }
      break;
    }
    default: d.strings.emplace_back(s); break;
  }
}

// A placeholder of the column's kind for a NULL row.
void append_null(QueryResult::ColumnData& d) {
  switch (d.type.id) {
    case TypeId::kDouble: d.doubles.push_back(0); break;
    case TypeId::kHugeint: d.huge.push_back(0); break;
    case TypeId::kVarchar: d.strings.emplace_back(); break;
    case TypeId::kDecimal:
      if (d.type.precision > 18) d.huge.push_back(0);
      else d.ints.push_back(0);
      break;
    default: d.ints.push_back(0); break;
  }
}

ErrorKind kind_of(const char* sqlstate) {
  const std::string_view s = sqlstate ? sqlstate : "";
  if (s == "42601") return ErrorKind::kParse;
  if (s.starts_with("42")) return ErrorKind::kBinder;
  if (s.starts_with("22")) return ErrorKind::kExecution;
  if (s == "0A000") return ErrorKind::kNotImplemented;
  if (s == "57014") return ErrorKind::kCancelled;
  if (s.starts_with("53")) return ErrorKind::kOutOfMemory;
  if (s.starts_with("58") || s.starts_with("08")) return ErrorKind::kIO;
  return ErrorKind::kExecution;
}

QueryResult rows_of(const PGresult* r) {
  QueryResult q;
  const int rows = PQntuples(r), cols = PQnfields(r);
  for (int c = 0; c < cols; c++) {
    QueryResult::ColumnData d;
    d.name = PQfname(r, c);
    d.type = type_of(r, c);
    for (int row = 0; row < rows; row++) {
      if (PQgetisnull(r, row, c)) {
        if (d.nulls.empty()) d.nulls.assign(size_t(rows), 0);
        d.nulls[size_t(row)] = 1;
        append_null(d);
      } else {
        append_value(d, PQgetvalue(r, row, c));
      }
    }
    q.columns().push_back(std::move(d));
  }
  q.set_row_count(size_t(rows));
  return q;
}

}  // namespace

struct RemoteConnection::Impl {
  PGconn* conn = nullptr;
  PGcancel* cancel = nullptr;  // made once: PQcancel on it is async-signal-safe
  ~Impl() {
    if (cancel) PQfreeCancel(cancel);
    PQfinish(conn);
  }
};

std::unique_ptr<RemoteConnection> RemoteConnection::connect(const std::string& target) {
  auto impl = std::make_unique<Impl>();
  impl->conn = PQconnectdb(connection_string(target).c_str());
  if (PQstatus(impl->conn) != CONNECTION_OK) {
    std::string why = PQerrorMessage(impl->conn);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    for (char& ch : why)
      if (ch == '\n') ch = ' ';
    fail(ErrorKind::kIO, "cannot connect to {}: {}", target, why);
  }
  impl->cancel = PQgetCancel(impl->conn);
  return std::unique_ptr<RemoteConnection>(new RemoteConnection(std::move(impl)));
}

void RemoteConnection::cancel_running() noexcept {
  char why[256];
  if (impl_->cancel) PQcancel(impl_->cancel, why, int(sizeof why));
}

QueryResult RemoteConnection::query(const std::string& sql) {
  std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(impl_->conn, sql.c_str()), PQclear);
  const ExecStatusType st = PQresultStatus(r.get());
  if (st == PGRES_TUPLES_OK) {
    QueryResult q = rows_of(r.get());
    q.backend = "server";
    return q;
  }
  if (st == PGRES_COMMAND_OK) {
    QueryResult q;
    QueryResult::ColumnData d;
    d.name = "status";
    d.type = Type::varchar();
    d.strings.push_back(PQcmdStatus(r.get()));
    q.columns().push_back(std::move(d));
    q.set_row_count(1);
    q.backend = "server";
    return q;
  }
  const char* primary = PQresultErrorField(r.get(), PG_DIAG_MESSAGE_PRIMARY);
  std::string msg = primary ? primary : PQerrorMessage(impl_->conn);
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  throw Error(kind_of(PQresultErrorField(r.get(), PG_DIAG_SQLSTATE)), msg);
}

#else

struct RemoteConnection::Impl {};

std::unique_ptr<RemoteConnection> RemoteConnection::connect(const std::string&) {
  fail(ErrorKind::kNotImplemented, "this raydb was built without libpq (libpq-dev): --server is not available");
}

QueryResult RemoteConnection::query(const std::string&) { fail(ErrorKind::kInternal, "no connection"); }
void RemoteConnection::cancel_running() noexcept {}

#endif

RemoteConnection::RemoteConnection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RemoteConnection::~RemoteConnection() = default;

}  // namespace raydb::client
