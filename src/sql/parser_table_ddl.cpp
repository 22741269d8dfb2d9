// CREATE TABLE [AS SELECT], DROP TABLE, INSERT INTO, COPY, CREATE VIEW, UPDATE and
// DELETE (the grammar is in ast.h). Names are resolved later: api/ checks them against the catalog.
#include "sql/parse_error.h"
#include "sql/ast_nodes.h"
#include "sql/parser.h"
#include "storage/table.h"

namespace raydb::sql {

bool Parser::accept_if_exists() {
  if (!(peek().is_keyword("if") && peek(1).is_keyword("exists"))) return false;
  next();
  next();
  return true;
}

SelectStatement Parser::parse_select_until_end() {
  if (!peek().is_keyword("select") && !peek().is_keyword("with") && !peek().is_operator("("))
    expected_error(peek(), "SELECT");
  return parse_select();
}

CreateTableStatement Parser::parse_create_table() {
  CreateTableStatement c;
  if (peek().is_keyword("if") && peek(1).is_keyword("not") && peek(2).is_keyword("exists")) {
    next(), next(), next();
    c.if_not_exists = true;
  }
  c.name = expect_name("a table name");
  if (peek().is_operator(".")) not_supported_error(peek(), "a schema-qualified table name");
  if (accept_keyword("as")) {
    c.as_select = true;
    c.select = parse_select_until_end();
    return c;
  }
  expect_operator("(");
  do {
    const Token& at = peek();
    if (at.is_keyword("primary") || at.is_keyword("unique") || at.is_keyword("foreign") || at.is_keyword("check") ||
        at.is_keyword("constraint"))
      not_supported_error(at, "table constraints", "raydb keeps no keys; declare columns only");
    ColumnDefinition d;
    d.name = expect_name("a column name");
    d.type = parse_type_name();
    for (;;) {
      if (peek().is_keyword("not") && peek(1).is_keyword("null")) {
        next(), next();
        d.not_null = true;
      } else if (peek().is_keyword("null")) {  // the default, said explicitly
        next();
        d.not_null = false;
      } else if (peek().is_keyword("primary") && peek(1).is_keyword("key")) {
        // Accepted as in SQLite's and the corpus's DDL: the column becomes NOT NULL.
        // raydb keeps no keys, so its uniqueness is not checked (README: "Tables").
        next(), next();
        d.not_null = true;
      } else if (at_name() || peek().is_keyword("default") || peek().is_keyword("primary")) {
        not_supported_error(peek(), "column constraint " + describe(peek()), "only NOT NULL is supported");
      } else {
        break;
      }
    }
    c.columns.push_back(std::move(d));
  } while (accept_operator(","));
  expect_operator(")");
  return c;
}

DropTableStatement Parser::parse_drop_table() {
  DropTableStatement d;
  d.if_exists = accept_if_exists();
  d.name = expect_name("a table name");
  if (peek().is_keyword("cascade") || peek().is_keyword("restrict"))
    not_supported_error(peek(), "DROP TABLE ... " + peek().raw);
  return d;
}

InsertStatement Parser::parse_insert() {
  InsertStatement ins;
  ins.table = expect_name("a table name");
  if (peek().is_operator(".")) not_supported_error(peek(), "a schema-qualified table name");
  if (accept_operator("(")) {
    do ins.columns.push_back(expect_name("a column name"));
    while (accept_operator(","));
    expect_operator(")");
  }
  if (peek().is_keyword("select") || peek().is_keyword("with")) {
    ins.from_select = true;
    ins.select = parse_select();
    return ins;
  }
  if (peek().is_keyword("default")) not_supported_error(peek(), "DEFAULT VALUES");
  expect_keyword("values", "VALUES or SELECT");
  do {
    expect_operator("(");
    std::vector<AstPtr> row;
    do row.push_back(parse_expr());
    while (accept_operator(","));
    expect_operator(")");
    ins.rows.push_back(std::move(row));
  } while (accept_operator(","));
  if (peek().is_keyword("on") || peek().is_keyword("returning"))
    not_supported_error(peek(), "INSERT ... " + peek().raw);
  return ins;
}

CopyStatement Parser::parse_copy() {
  CopyStatement c;
  if (accept_operator("(")) {
    select_in_parens_ = true;
    c.select = parse_select_until_end();
    select_in_parens_ = false;
    expect_operator(")");
    c.to = true;
    expect_keyword("to", "TO (a query can only be copied to a file)");
  } else {
    c.table = expect_name("a table name or (SELECT ...)");
    if (peek().is_operator("(")) not_supported_error(peek(), "COPY with a column list");
    if (accept_keyword("to")) {
      c.to = true;
    } else {
      expect_keyword("from", "FROM or TO");
    }
  }
  const Token& f = peek();
  if (f.is_keyword("stdin") || f.is_keyword("stdout")) not_supported_error(f, "COPY " + f.raw, "name a file");
  if (f.type != TokenType::kString) expected_error(f, "a file name in single quotes");
  c.file = next().text;
  if (c.file.empty()) parse_error_at(f.line, f.column, "syntax error", "the file name is empty");
  parse_copy_options(c);
  return c;
}

// [WITH] (HEADER [TRUE|FALSE|ON|OFF|1|0], DELIMITER 'c', NULL 'text', FORMAT CSV), as
// PostgreSQL and DuckDB write them.
void Parser::parse_copy_options(CopyStatement& c) {
  const bool with = accept_keyword("with");
  const std::string& file = c.file;
  c.parquet = file.size() > 8 && iequals(std::string_view(file).substr(file.size() - 8), ".parquet");
  if (!peek().is_operator("(")) {
    if (with) expected_error(peek(), "'('");
    return;
  }
  next();
  const Token* csv_option = nullptr;  // HEADER, DELIMITER or NULL: CSV only
  do {
    const Token& o = peek();
    if (o.is_keyword("null") || o.text == "header" || o.text == "delimiter" || o.text == "delim" || o.text == "sep")
      csv_option = &o;
    if (o.is_keyword("null")) {
      next();
      const Token& v = peek();
      if (v.type != TokenType::kString) expected_error(v, "the NULL text in single quotes");
      if (v.text.find_first_of("\n\r\"") != std::string::npos || v.text.find(c.delimiter) != std::string::npos)
        parse_error_at(v.line, v.column, "syntax error",
                       "the NULL text cannot hold a quote, a line break or the delimiter, got " + describe(v));
      c.null_string = next().text;
      c.null_string_given = true;
      continue;
    }
    if (o.type != TokenType::kIdentifier) expected_error(o, "HEADER, DELIMITER, NULL or FORMAT");
    next();
    if (o.text == "header") {
      c.header = true;
      const Token& v = peek();
      if (v.is_keyword("true") || v.is_keyword("on") || (v.type == TokenType::kInteger && v.text == "1")) {
        next();
      } else if (v.is_keyword("false") || v.is_keyword("off") || (v.type == TokenType::kInteger && v.text == "0")) {
        next();
        c.header = false;
      }
    } else if (o.text == "delimiter" || o.text == "delim" || o.text == "sep") {
      const Token& v = peek();
      if (v.type != TokenType::kString) expected_error(v, "a delimiter in single quotes");
      if (v.text.size() != 1 || v.text[0] == '"' || v.text[0] == '\n' || v.text[0] == '\r')
        parse_error_at(v.line, v.column, "syntax error",
                       "the delimiter must be one character other than a quote or a line break, got " + describe(v));
      c.delimiter = next().text[0];
    } else if (o.text == "format") {
      const Token& v = peek();
      const bool word = v.type == TokenType::kString || v.type == TokenType::kIdentifier || v.is_keyword("csv");
      if (word && (iequals(v.text, "csv") || v.is_keyword("csv")))
        c.parquet = false;
      else if (word && iequals(v.text, "parquet"))
        c.parquet = true;
      else
        not_supported_error(v, "COPY format " + describe(v), "raydb copies CSV and Parquet");
      next();
    } else {
      parse_error_at(o.line, o.column, "syntax error",
                     "unknown COPY option " + describe(o) + " (expected HEADER, DELIMITER, NULL or FORMAT)");
    }
  } while (accept_operator(","));
  if (c.parquet && csv_option)
    parse_error_at(csv_option->line, csv_option->column, "syntax error",
                   "COPY to or from Parquet takes no " + describe(*csv_option) + " option (CSV only)");
  expect_operator(")");
}

ModifyStatement Parser::parse_modify() {
  ModifyStatement m;
  const Token& start = next();
  m.update = start.is_keyword("update");
  if (!m.update) expect_keyword("from", "FROM");
  TableItem from;
  from.line = peek().line;
  from.column = peek().column;
  from.name = m.table = expect_name("a table name");
  if (peek().is_operator(".")) not_supported_error(peek(), "a schema-qualified table name");
  if (accept_keyword("as") || (at_name() && !peek().is_keyword("set") && !peek().is_keyword("where")))
    from.alias = expect_name("an alias");
  m.select.select.push_back(SelectItem{node(AstKind::kStar, start), ""});
  if (m.update) {
    expect_keyword("set", "SET");
    do {
      m.set_columns.push_back(expect_name("a column name"));
      if (peek().is_operator(".")) not_supported_error(peek(), "a qualified SET target");
      expect_operator("=");
      if (peek().is_keyword("default")) not_supported_error(peek(), "SET ... = DEFAULT", "columns have no defaults");
      AstPtr v = parse_expr();
      m.set_literal.push_back(v->kind == AstKind::kLiteral && v->value.type().id == TypeId::kVarchar);
      m.select.select.push_back(SelectItem{v, ""});
    } while (accept_operator(","));
    if (peek().is_keyword("from")) not_supported_error(peek(), "UPDATE ... FROM");
  } else if (peek().is_keyword("using")) {
    not_supported_error(peek(), "DELETE ... USING");
  }
  AstPtr flag = literal(start, Value::integer(1), "1");
  if (accept_keyword("where")) {  // CASE WHEN cond THEN 1 ELSE 0 END: NULL (unknown) is not a match
    AstPtr cond = parse_expr();
    auto c = node(AstKind::kCase, *cond);
    c->children = {cond, literal(start, Value::integer(1), "1"), literal(start, Value::integer(0), "0")};
    c->has_else = true;
    flag = c;
  }
  m.select.select.push_back(SelectItem{flag, ""});
  m.select.from.push_back(std::move(from));
  if (peek().is_keyword("returning")) not_supported_error(peek(), "RETURNING");
  return m;
}

CreateViewStatement Parser::parse_create_view() {
  CreateViewStatement c;
  if (peek().is_keyword("if")) not_supported_error(peek(), "CREATE VIEW IF NOT EXISTS");
  c.name = expect_name("a view name");
  if (peek().is_operator("(")) not_supported_error(peek(), "a view column list", "name the columns with AS in the SELECT");
  expect_keyword("as", "AS");
  const size_t begin = peek().offset;
  c.select = parse_select_until_end();
  size_t end = peek().offset;
  if (peek().type == TokenType::kEnd) end = sql_.size();
  c.sql = sql_.substr(begin, end - begin);
  while (!c.sql.empty() && (c.sql.back() == ' ' || c.sql.back() == '\n' || c.sql.back() == '\t' || c.sql.back() == '\r'))
    c.sql.pop_back();
  return c;
}

}  // namespace raydb::sql
