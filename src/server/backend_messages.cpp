#include "server/backend_messages.h"

#include "server/pg_types.h"

namespace raydb::server {

void BackendMessages::authentication(int32_t code, const std::string& data) {
  w_.begin('R');
  w_.int32(code);
  w_.bytes(data);
  w_.end();
}

void BackendMessages::parameter_status(const std::string& name, const std::string& value) {
  w_.begin('S');
  w_.cstring(name);
  w_.cstring(value);
  w_.end();
}

void BackendMessages::backend_key(int32_t pid, int32_t secret) {
  w_.begin('K');
  w_.int32(pid);
  w_.int32(secret);
  w_.end();
}

void BackendMessages::ready_for_query(char status) {
  w_.begin('Z');
  w_.byte(uint8_t(status));
  w_.end();
}

void BackendMessages::row_description(const QueryResult& r) {
  w_.begin('T');
  w_.int16(int16_t(r.column_count()));
  for (size_t c = 0; c < r.column_count(); c++) {
    const Type& t = r.column_type(c);
    w_.cstring(r.column_name(c).empty() ? "?column?" : r.column_name(c));
    w_.int32(0);  // not a table's column
    w_.int16(0);
    w_.int32(type_oid(t));
    w_.int16(type_size(t));
    w_.int32(type_modifier(t));
    w_.int16(0);  // text format
  }
  w_.end();
}

void BackendMessages::data_rows(const QueryResult& r, size_t begin, size_t end) {
  const auto& cols = r.columns();
  for (size_t row = begin; row < end; row++) {
    w_.begin('D');
    w_.int16(int16_t(cols.size()));
    for (const auto& c : cols) {
      const std::optional<std::string> v = text_value(c, row);
      if (!v) {
        w_.int32(-1);
        continue;
      }
      w_.int32(int32_t(v->size()));
      w_.bytes(*v);
    }
    w_.end();
  }
}

void BackendMessages::command_complete(const std::string& tag) {
  w_.begin('C');
  w_.cstring(tag);
  w_.end();
}

void BackendMessages::error(const SqlError& e) {
  const char* severity = e.fatal ? "FATAL" : "ERROR";
  w_.begin('E');
  w_.byte('S'), w_.cstring(severity);
  w_.byte('V'), w_.cstring(severity);
  w_.byte('C'), w_.cstring(e.code);
  w_.byte('M'), w_.cstring(e.message);
  w_.byte(0);
  w_.end();
}

void BackendMessages::notice(const std::string& message) {
  w_.begin('N');
  w_.byte('S'), w_.cstring("NOTICE");
  w_.byte('V'), w_.cstring("NOTICE");
  w_.byte('C'), w_.cstring("00000");
  w_.byte('M'), w_.cstring(message);
  w_.byte(0);
  w_.end();
}

void BackendMessages::parameter_description(const std::vector<int32_t>& oids) {
  w_.begin('t');
  w_.int16(int16_t(oids.size()));
  for (int32_t o : oids) w_.int32(o);
  w_.end();
}

void BackendMessages::negotiate_protocol(int32_t minor, const std::vector<std::string>& unknown_options) {
  w_.begin('v');
  w_.int32(minor);
  w_.int32(int32_t(unknown_options.size()));
  for (const std::string& o : unknown_options) w_.cstring(o);
  w_.end();
}

}  // namespace raydb::server
