#include "sql/sql.h"

#include "sql/binder.h"
#include "sql/expression_binder.h"
#include "sql/parser.h"

namespace raydb::sql {

namespace {

// CREATE TABLE, DROP TABLE, INSERT, COPY, CREATE VIEW, UPDATE, DELETE: binds their SELECT (or VALUES
// entries); false for any other statement.
bool bind_table_statement(Statement& st, const TableResolver& resolve, const ViewLookup& views, QueryRunner* runner,
                          BoundStatement& out) {
  auto bind_query = [&](const SelectStatement& s) {
    out.query = Binder(resolve, views, runner).bind(s);
    out.has_query = true;
  };
  switch (st.type) {
    case StatementType::kCreateTable:
      out.kind = StatementKind::kCreateTable;
      if (st.create_table.as_select) bind_query(st.create_table.select);
      out.create_table = std::move(st.create_table);
      return true;
    case StatementType::kDropTable:
      out.kind = StatementKind::kDropTable;
      out.drop_table = std::move(st.drop_table);
      return true;
    case StatementType::kInsert: {
      out.kind = StatementKind::kInsert;
      if (st.insert.from_select) bind_query(st.insert.select);
      std::vector<plan::TableRef> none;
      ExpressionBinder eb(none, 0, nullptr, "VALUES");
      for (auto& row : st.insert.rows) {
        std::vector<plan::ExprPtr> bound;
        for (auto& e : row) bound.push_back(eb.bind(*e));
        out.values.push_back(std::move(bound));
      }
      out.insert = std::move(st.insert);
      return true;
    }
    case StatementType::kCopy:
      out.kind = StatementKind::kCopy;
      if (st.copy.to && !st.copy.table.empty()) {  // COPY t TO: SELECT * FROM t
        auto star = std::make_shared<AstExpr>();
        star->kind = AstKind::kStar;
        st.copy.select.select.push_back(SelectItem{star, ""});
        TableItem from;
        from.name = st.copy.table;
        st.copy.select.from.push_back(from);
      }
      if (st.copy.to) bind_query(st.copy.select);
      out.copy = std::move(st.copy);
      return true;
    case StatementType::kModify:
      out.kind = StatementKind::kModify;
      bind_query(st.modify.select);
      out.modify = std::move(st.modify);
      return true;
    case StatementType::kCreateView:
      out.kind = StatementKind::kCreateView;
      bind_query(st.create_view.select);  // checks the view now, against today's tables
      out.create_view = std::move(st.create_view);
      return true;
    default: return false;
  }
}

}  // namespace

BoundStatement parse_and_bind(std::string_view sql, const TableResolver& resolve, const ViewLookup& views,
                              QueryRunner* runner) {
  return bind(parse(sql), resolve, views, runner);
}

Statement parse(std::string_view sql) { return Parser(sql).parse_statement(); }

BoundStatement bind(Statement st, const TableResolver& resolve, const ViewLookup& views, QueryRunner* runner) {
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
    out.rt_only = st.drop_rt_view.rt;
    return out;
  }
  if (bind_table_statement(st, resolve, views, runner, out)) return out;
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
  out.query = Binder(resolve, views, runner).bind(st.select);
  return out;
}

}  // namespace raydb::sql
