#include "sql/sql.h"

#include "sql/binder.h"
#include "sql/parser.h"

namespace raydb::sql {

BoundStatement parse_and_bind(std::string_view sql, const TableResolver& resolve) {
  Statement st = Parser(sql).parse_statement();
  BoundStatement out;
  if (st.type == StatementType::kCreateIndex) {
    out.kind = StatementKind::kCreateIndex;
    auto& c = st.create_index;
    out.index = IndexDefinition{c.name, c.table, c.column, c.kind, c.options};
    if (c.columns.size() > 1) out.index.columns = c.columns;
    return out;
  }
  if (st.type == StatementType::kDropIndex) {
    out.kind = StatementKind::kDropIndex;
    out.index.name = st.drop_index.name;
    out.if_exists = st.drop_index.if_exists;
    return out;
  }
  if (st.type == StatementType::kCreateRtView) {
    out.kind = StatementKind::kCreateRtView;
    out.rt_view = std::move(st.create_rt_view);
    return out;
  }
  if (st.type == StatementType::kDropRtView) {
    out.kind = StatementKind::kDropRtView;
    out.view_name = st.drop_rt_view.name;
    out.if_exists = st.drop_rt_view.if_exists;
    return out;
  }
  if (st.type == StatementType::kSet || st.type == StatementType::kReset || st.type == StatementType::kShow) {
    out.kind = st.type == StatementType::kSet     ? StatementKind::kSet
               : st.type == StatementType::kReset ? StatementKind::kReset
                                                  : StatementKind::kShow;
    out.setting = st.setting.name;
    out.value = st.setting.value;
    return out;
  }
  out.kind = st.explain ? StatementKind::kExplain : StatementKind::kSelect;
  out.analyze = st.analyze;
  out.query = Binder(resolve).bind(st.select);
  return out;
}

}  // namespace raydb::sql
