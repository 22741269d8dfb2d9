#include "sql/sql.h"

#include "sql/binder.h"
#include "sql/parser.h"

namespace raydb::sql {

BoundStatement parse_and_bind(std::string_view sql, const TableResolver& resolve) {
  Statement st = Parser(sql).parse_statement();
  BoundStatement out;
  out.kind = st.explain ? StatementKind::kExplain : StatementKind::kSelect;
  out.query = Binder(resolve).bind(st.select);
  return out;
}

}  // namespace raydb::sql
