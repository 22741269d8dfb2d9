// The public face of sql::split_statements (the CLI sees only include/raydb/).
#include "raydb/raydb.h"
#include "sql/statement_splitter.h"

namespace raydb {

SqlScript split_sql_script(std::string_view text) {
  sql::SplitScript s = sql::split_statements(text);
  return SqlScript{std::move(s.statements), std::move(s.rest)};
}

}  // namespace raydb
