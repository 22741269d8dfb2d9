#pragma once
// The backend messages a session sends, built into one output buffer that the session
// flushes at ReadyForQuery, Flush, and whenever it grows large.
#include <string>
#include <vector>

#include "raydb/raydb.h"
#include "server/sql_error.h"
#include "server/wire_message.h"

namespace raydb::server {

class BackendMessages {
 public:
  void authentication(int32_t code, const std::string& data = {});  // 'R'
  void parameter_status(const std::string& name, const std::string& value);  // 'S'
  void backend_key(int32_t pid, int32_t secret);  // 'K'
  void ready_for_query(char status);  // 'Z': 'I' idle, 'T' in a block, 'E' failed block
  void row_description(const QueryResult& r);  // 'T'
  // 'D' for rows [begin, end) of `r`, text format.
  void data_rows(const QueryResult& r, size_t begin, size_t end);
  void command_complete(const std::string& tag);  // 'C'
  void error(const SqlError& e);  // 'E'
  void notice(const std::string& message);  // 'N', severity NOTICE
  void parameter_description(const std::vector<int32_t>& oids);  // 't'
  void negotiate_protocol(int32_t minor, const std::vector<std::string>& unknown_options);  // 'v'
  void empty(char type) { w_.empty(type); }

  std::string& buffer() { return w_.buffer(); }

 private:
  MessageWriter w_;
};

}  // namespace raydb::server
