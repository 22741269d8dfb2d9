// Session: the extended query protocol (Parse, Bind, Describe, Execute, Close, Sync).
// Parameters are bound by substituting literals (parameters.h); results are text.
#include <algorithm>

#include "server/parameters.h"
#include "server/pg_types.h"
#include "server/session.h"

namespace raydb::server {

namespace {

// The one statement of a Parse message's text (without its ';'); "" when blank.
std::string single_statement(const std::string& text) {
  SqlScript script = split_sql_script(text);
  if (!script.rest.empty()) script.statements.push_back(script.rest);
  if (script.statements.size() > 1) throw SqlError{"42601", "cannot insert multiple commands into a prepared statement"};
  return script.statements.empty() ? std::string() : script.statements[0];
}

// Format codes of Bind: none (all text), one for all, or one each.
int16_t format_of(const std::vector<int16_t>& formats, size_t i) {
  if (formats.empty()) return 0;
  return formats.size() == 1 ? formats[0] : formats[i];
}

}  // namespace

void Session::fail(const SqlError& e) {
  out_.error(e);
  skip_to_sync_ = true;
}

// Runs an extended-query step; an error is reported once and the rest of the batch
// up to Sync is skipped.
void Session::step(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    fail(sql_error_for(e));
  } catch (const SqlError& e) {
    fail(e);
  } catch (const std::exception& e) {
    fail(SqlError{"XX000", std::string("internal: ") + e.what()});
  }
}

void Session::parse(MessageReader& m) {
  const std::string name = m.cstring();
  const std::string text = m.cstring();
  Prepared p;
  const int16_t n = m.int16();
  for (int16_t i = 0; i < n; i++) p.param_oids.push_back(m.int32());
  step([&] {
    if (!name.empty() && prepared_.count(name)) throw SqlError{"42P05", "prepared statement \"" + name + "\" already exists"};
    p.sql = single_statement(text);
    p.param_count = std::max(count_parameters(p.sql), int(p.param_oids.size()));
    prepared_[name] = std::move(p);
    out_.empty('1');  // ParseComplete
  });
}

void Session::bind(MessageReader& m) {
  const std::string portal = m.cstring(), statement = m.cstring();
  std::vector<int16_t> formats(size_t(std::max<int16_t>(m.int16(), 0)));
  for (int16_t& f : formats) f = m.int16();
  std::vector<std::optional<std::string>> values(size_t(std::max<int16_t>(m.int16(), 0)));
  for (auto& v : values) {
    const int32_t len = m.int32();
    if (len >= 0) v = std::string(m.bytes(size_t(len)));
  }
  std::vector<int16_t> result_formats(size_t(std::max<int16_t>(m.int16(), 0)));
  for (int16_t& f : result_formats) f = m.int16();
  step([&] {
    auto it = prepared_.find(statement);
    if (it == prepared_.end()) throw SqlError{"26000", "prepared statement \"" + statement + "\" does not exist"};
    const Prepared& p = it->second;
    if (int(values.size()) != p.param_count)
      throw SqlError{"08P01", "bind message supplies " + std::to_string(values.size()) +
                                  " parameters, but prepared statement \"" + statement + "\" requires " +
                                  std::to_string(p.param_count)};
    for (int16_t f : result_formats)
      if (f != 0) throw SqlError{"0A000", "raydb serve sends results in text format only"};
    std::vector<std::string> literals;
    for (size_t i = 0; i < values.size(); i++) {
      const int32_t type = i < p.param_oids.size() ? p.param_oids[i] : 0;
      std::optional<std::string> text = values[i];
      if (text && format_of(formats, i) == 1) text = binary_parameter_text(*text, type);
      literals.push_back(parameter_literal(text, type));
    }
    Portal q;
    q.sql = substitute_parameters(p.sql, literals);
    portals_[portal] = std::move(q);
    out_.empty('2');  // BindComplete
  });
}

// Describe of a portal runs a row-returning statement now (its rows wait for Execute)
// so that its columns are known; Describe of a statement runs it with NULL parameters.
void Session::describe(MessageReader& m) {
  const char kind = char(m.byte());
  const std::string name = m.cstring();
  step([&] {
    if (kind == 'P') {
      auto it = portals_.find(name);
      if (it == portals_.end()) throw SqlError{"34000", "portal \"" + name + "\" does not exist"};
      Portal& p = it->second;
      if (!StatementRunner::returns_rows(p.sql)) return out_.empty('n');  // NoData
      run_portal(p);
      if (p.outcome.has_rows) out_.row_description(p.outcome.result);
      else out_.empty('n');
      return;
    }
    auto it = prepared_.find(name);
    if (it == prepared_.end()) throw SqlError{"26000", "prepared statement \"" + name + "\" does not exist"};
    const Prepared& p = it->second;
    std::vector<int32_t> oids(size_t(p.param_count), oid::kText);
    for (size_t i = 0; i < p.param_oids.size(); i++)
      if (p.param_oids[i] != 0) oids[i] = p.param_oids[i];
    out_.parameter_description(oids);
    if (!StatementRunner::returns_rows(p.sql)) return out_.empty('n');
    const std::optional<QueryResult> probe =
        runner_->probe(substitute_parameters(p.sql, std::vector<std::string>(size_t(p.param_count), "NULL")));
    if (probe) out_.row_description(*probe);
    else out_.empty('n');
  });
}

void Session::run_portal(Portal& p) {
  if (p.ran) return;
  check_cancel();
  p.outcome = runner_->run(p.sql);
  p.ran = true;
  send_side_messages(p.outcome);
}

void Session::execute(MessageReader& m) {
  const std::string name = m.cstring();
  const int32_t max_rows = m.int32();
  step([&] {
    auto it = portals_.find(name);
    if (it == portals_.end()) throw SqlError{"34000", "portal \"" + name + "\" does not exist"};
    Portal& p = it->second;
    if (p.sql.empty()) return out_.empty('I');  // EmptyQueryResponse
    run_portal(p);
    if (!p.outcome.has_rows) return out_.command_complete(p.outcome.tag);
    const size_t rows = p.outcome.result.row_count();
    const size_t end = max_rows > 0 ? std::min(rows, p.sent + size_t(max_rows)) : rows;
    send_rows(p.outcome.result, p.sent, end);
    p.sent = end;
    if (end < rows) out_.empty('s');  // PortalSuspended
    else out_.command_complete(p.outcome.tag);
  });
}

void Session::close(MessageReader& m) {
  const char kind = char(m.byte());
  const std::string name = m.cstring();
  if (kind == 'S') prepared_.erase(name);
  else portals_.erase(name);
  out_.empty('3');  // CloseComplete
}

// Sync ends the batch; outside a transaction block the portals go with it.
void Session::sync() {
  skip_to_sync_ = false;
  *cancel_requested_ = false;
  if (runner_->transaction_status() == 'I') portals_.clear();
  out_.ready_for_query(runner_->transaction_status());
}

}  // namespace raydb::server
