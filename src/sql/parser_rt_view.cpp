// CREATE RT VIEW and DROP [RT] VIEW (the grammar is in ast.h). The select list is
// `*`: the view keeps every row of the join, and its roles are named in WITH.
#include "sql/parse_error.h"
#include "sql/parser.h"

namespace raydb::sql {

CreateRtViewStatement Parser::parse_create_rt_view() {
  CreateRtViewStatement c;
  if (peek().is_keyword("if")) not_supported_error(peek(), "CREATE RT VIEW IF NOT EXISTS");
  c.name = expect_name("a view name");
  expect_keyword("as", "AS");
  expect_keyword("select", "SELECT");
  if (!accept_operator("*"))
    parse_error_at(peek().line, peek().column, "syntax error",
                   "an RT view's select list is * (name its roles in WITH (filter = (...), group = (...), "
                   "aggregate = (...)))");
  expect_keyword("from", "FROM");
  SelectStatement s;
  parse_from(s);
  c.from = std::move(s.from);
  if (peek().is_keyword("where") || peek().is_keyword("group"))
    parse_error_at(peek().line, peek().column, "syntax error",
                   "an RT view takes no " + peek().raw + " clause (it holds every joined row; queries filter it)");
  expect_keyword("with", "WITH (filter = (...), group = (...), aggregate = (...))");
  expect_operator("(");
  bool seen[3] = {false, false, false};
  do {
    const Token& k = peek();
    const int role = k.is_keyword("filter") ? 0 : k.is_keyword("group") ? 1 : k.is_keyword("aggregate") ? 2 : -1;
    if (role < 0) expected_error(k, "FILTER, GROUP or AGGREGATE");
    if (seen[role]) parse_error_at(k.line, k.column, "syntax error", k.raw + " is given twice");
    seen[role] = true;
    next();
    expect_operator("=");
    std::vector<AstPtr> items = parse_rt_view_role();
    (role == 0 ? c.filters : role == 1 ? c.groups : c.aggregates) = std::move(items);
  } while (accept_operator(","));
  expect_operator(")");
  return c;
}

std::vector<AstPtr> Parser::parse_rt_view_role() {
  std::vector<AstPtr> items;
  expect_operator("(");
  if (accept_operator(")")) return items;  // an empty role: no group attributes, say
  do {
    items.push_back(parse_additive());
  } while (accept_operator(","));
  expect_operator(")");
  return items;
}

DropRtViewStatement Parser::parse_drop_rt_view() {
  DropRtViewStatement d;
  if (peek().is_keyword("if") && peek(1).is_keyword("exists")) {
    next();
    next();
    d.if_exists = true;
  }
  d.name = expect_name("a view name");
  return d;
}

}  // namespace raydb::sql
