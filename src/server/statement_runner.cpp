#include "server/statement_runner.h"

#include <cctype>
#include <set>

#include "server/sql_error.h"

namespace raydb::server {

std::vector<std::string> leading_words(const std::string& sql, size_t n) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < sql.size() && words.size() < n) {
    const unsigned char c = static_cast<unsigned char>(sql[i]);
    if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {  // a comment line
      while (i < sql.size() && sql[i] != '\n') i++;
    } else if (std::isalnum(c) || c == '_') {
      std::string w;
      while (i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '_'))
        w += char(std::tolower(static_cast<unsigned char>(sql[i++])));
      words.push_back(std::move(w));
    } else if (std::isspace(c) || c == '=') {
      i++;
    } else {
      words.push_back(std::string(1, char(c)));
      i++;
    }
  }
  return words;
}

bool StatementRunner::returns_rows(const std::string& sql) {
  const std::vector<std::string> w = leading_words(sql, 1);
  if (w.empty()) return false;
  static const std::set<std::string> kinds = {"select", "with", "values", "explain", "show", "("};
  return kinds.count(w[0]) > 0;
}

Outcome StatementRunner::run(const std::string& sql) {
  const std::vector<std::string> w = leading_words(sql, 1);
  const std::string first = w.empty() ? "" : w[0];
  const bool ends_block = first == "rollback" || first == "abort" || first == "commit" || first == "end";
  if (status_ == 'E' && !ends_block)
    throw SqlError{"25P02", "current transaction is aborted, commands ignored until end of transaction block"};
  try {
    return run_inner(sql);
  } catch (...) {
    if (status_ == 'T') status_ = 'E';
    throw;
  }
}

Outcome StatementRunner::run_inner(const std::string& sql) {
  const std::vector<std::string> w = leading_words(sql, 2);
  const std::string first = w.empty() ? "" : w[0];
  Outcome out;
  if (first == "begin" || first == "start") {
    if (status_ != 'I') out.notices.push_back("there is already a transaction in progress");
    status_ = 'T', writes_in_block_ = 0;
    out.tag = first == "begin" ? "BEGIN" : "START TRANSACTION";
    return out;
  }
  if (first == "commit" || first == "end" || first == "rollback" || first == "abort") {
    const bool rollback = first == "rollback" || first == "abort" || status_ == 'E';
    if (status_ == 'I') out.notices.push_back("there is no transaction in progress");
    if (rollback && writes_in_block_ > 0)
      out.notices.push_back("raydb has no transactions: the " + std::to_string(writes_in_block_) +
                            " writing statement(s) of this block were committed when they ran");
    status_ = 'I', writes_in_block_ = 0;
    out.tag = rollback ? "ROLLBACK" : "COMMIT";
    return out;
  }
  if (first == "set" && session_setting(sql, out)) return out;
  out = from_result(connection_.query(sql));
  if (status_ == 'T' && !out.has_rows && out.tag != "SET" && out.tag != "RESET") writes_in_block_++;
  return out;
}

namespace {

// The value of "SET [SESSION|LOCAL] name {TO|=} value": a quoted string's content or
// the rest of the text, trimmed and lower-cased.
std::string setting_value(const std::string& sql, const std::string& name) {
  std::string lower;
  for (char c : sql) lower += char(std::tolower(static_cast<unsigned char>(c)));
  size_t i = lower.find(name);
  if (i == std::string::npos) return "";
  i += name.size();
  while (i < lower.size() && (std::isspace(static_cast<unsigned char>(lower[i])) || lower[i] == '=')) i++;
  if (lower.compare(i, 2, "to") == 0 && (i + 2 == lower.size() || !std::isalnum(static_cast<unsigned char>(lower[i + 2]))))
    i += 2;
  while (i < lower.size() && std::isspace(static_cast<unsigned char>(lower[i]))) i++;
  std::string v = i < lower.size() ? lower.substr(i) : "";
  if (!v.empty() && v[0] == '\'') {
    const size_t close = v.find('\'', 1);
    // The original case: application names keep it.
    return close == std::string::npos ? "" : sql.substr(i + 1, close - 1);
  }
  while (!v.empty() && (std::isspace(static_cast<unsigned char>(v.back())) || v.back() == ';')) v.pop_back();
  return v;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

// SET of a PostgreSQL session parameter that drivers send on connect (JDBC's
// extra_float_digits, application_name, ...): accepted; what raydb cannot honour
// (another client encoding or date style) is an error. Returns false for raydb's own.
bool StatementRunner::session_setting(const std::string& sql, Outcome& out) {
  std::vector<std::string> w = leading_words(sql, 3);
  size_t at = 1;
  if (w.size() > at && (w[at] == "session" || w[at] == "local")) at++;
  if (w.size() <= at) return false;
  const std::string& name = w[at];
  static const std::set<std::string> accepted = {
      "application_name", "extra_float_digits", "search_path", "statement_timeout", "lock_timeout",
      "idle_in_transaction_session_timeout", "client_min_messages", "bytea_output", "intervalstyle", "jit",
      "transaction", "characteristics", "timezone", "datestyle", "client_encoding", "names",
      "standard_conforming_strings", "default_transaction_isolation", "default_transaction_read_only"};
  if (!accepted.count(name)) return false;
  const std::string value = setting_value(sql, name);
  auto must = [&](bool ok, const char* what) {
    if (!ok) throw SqlError{"22023", std::string("raydb serve supports only ") + what};
  };
  if (name == "client_encoding" || name == "names")
    must(lower(value) == "utf8" || lower(value) == "unicode" || lower(value) == "utf-8", "client_encoding UTF8");
  if (name == "datestyle") must(lower(value).rfind("iso", 0) == 0, "DateStyle ISO");
  if (name == "standard_conforming_strings") must(lower(value) == "on", "standard_conforming_strings on");
  if (name == "application_name") out.reported.emplace_back("application_name", value);
  out.tag = "SET";
  return true;
}

std::optional<QueryResult> StatementRunner::probe(const std::string& sql) {
  try {
    Outcome o = from_result(connection_.query(sql));
    if (o.has_rows) return std::move(o.result);
  } catch (const Error&) {
  }
  return std::nullopt;
}

Outcome StatementRunner::from_result(QueryResult r) {
  Outcome out;
  // A statement's status row (api/database.cpp status_result) is a command tag.
  if (r.backend == "catalog" && r.column_count() == 1 && r.column_name(0) == "status" && r.row_count() == 1) {
    const std::string text = r.get(0, 0).to_string();
    const size_t paren = text.find(" (");
    std::string tag = paren == std::string::npos ? text : text.substr(0, paren);
    if (paren != std::string::npos) out.notices.push_back(text);
    if (tag.rfind("INSERT ", 0) == 0) tag = "INSERT 0 " + tag.substr(7);
    out.tag = tag;
    return out;
  }
  out.has_rows = true;
  out.tag = "SELECT " + std::to_string(r.row_count());
  out.result = std::move(r);
  return out;
}

}  // namespace raydb::server
