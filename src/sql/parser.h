#pragma once
// Recursive-descent parser for raydb's SELECT dialect (see sql.h). Produces the AST;
// throws Error(kParse) with line and column for malformed SQL and
// Error(kNotImplemented) for recognized but unsupported features (outer joins,
// subqueries, set operations).
#include <string_view>
#include <vector>

#include "sql/ast.h"
#include "sql/token.h"

namespace raydb::sql {

class Parser {
 public:
  explicit Parser(std::string_view sql);
  // One statement, optionally followed by ';'; anything after that is an error.
  Statement parse_statement();

 private:
  // Token access.
  const Token& peek(size_t ahead = 0) const;
  const Token& next();
  bool accept_keyword(const char* kw);
  bool accept_operator(const char* op);
  const Token& expect_keyword(const char* kw, const char* shown);
  const Token& expect_operator(const char* op);
  // A name (identifier or quoted identifier, not a reserved word); `what` is shown in errors.
  std::string expect_name(const char* what, bool* quoted = nullptr);
  bool at_name() const;
  // A column alias or table alias after an optional AS.
  bool parse_optional_alias(std::string& alias);

  // Statement structure.
  SelectStatement parse_select();  // [WITH] set expression [ORDER BY] [LIMIT] [OFFSET]
  CommonTableExpr parse_cte();
  SelectStatement parse_parenthesized_query();  // ( query )
  SelectStatement parse_set_expression(int& clause);  // terms joined by UNION / EXCEPT
  SelectStatement parse_set_term(int& clause);        // operands joined by INTERSECT
  SelectStatement parse_set_operand(int& clause);     // a SELECT block or ( query )
  SelectStatement parse_select_core(int& clause);     // SELECT ... [FROM] [WHERE] [GROUP BY] [HAVING]
  void parse_order_and_limit(SelectStatement& s, int& clause);
  AstPtr parse_subquery(const Token& open, const char* op);
  CreateIndexStatement parse_create_index();
  DropIndexStatement parse_drop_index();
  CreateRtViewStatement parse_create_rt_view();  // after CREATE RT VIEW (parser_rt_view.cpp)
  DropRtViewStatement parse_drop_rt_view();      // after DROP [RT] VIEW
  std::vector<AstPtr> parse_rt_view_role();      // ( expr, ... )
  SettingStatement parse_setting(StatementType type);
  // Tables and plain views (parser_table_ddl.cpp), each after its leading keywords.
  CreateTableStatement parse_create_table();  // after CREATE TABLE
  DropTableStatement parse_drop_table();      // after DROP TABLE
  InsertStatement parse_insert();             // after INSERT INTO
  CopyStatement parse_copy();                 // after COPY
  CreateViewStatement parse_create_view();    // after CREATE VIEW
  ModifyStatement parse_modify();             // at UPDATE or DELETE
  void parse_copy_options(CopyStatement& c);
  bool accept_if_exists();
  SelectStatement parse_select_until_end();  // a SELECT that runs to the end of the statement
  void parse_select_list(SelectStatement& s);
  void parse_from(SelectStatement& s);
  TableItem parse_table_item();
  std::vector<TableItem> parse_table_items(bool first = false);
  void parse_order_by(SelectStatement& s);
  // [NULLS FIRST | NULLS LAST] after an ORDER BY key: 0 when absent, 1 FIRST, 2 LAST.
  int accept_nulls_order();
  [[noreturn]] void unexpected_after_clause(int clause);

  // Expressions, loosest binding first.
  AstPtr parse_expr();
  AstPtr parse_or();
  AstPtr parse_and();
  AstPtr parse_not();
  AstPtr parse_predicate();
  AstPtr parse_concat();
  AstPtr parse_additive();
  AstPtr parse_multiplicative();
  AstPtr parse_unary();
  AstPtr parse_postfix();
  AstPtr parse_primary();
  AstPtr parse_number(const Token& t, bool negative);
  AstPtr parse_case(const Token& start);
  AstPtr parse_function(const Token& name);
  // The SQL-standard call forms (parser_functions.cpp): EXTRACT(field FROM x),
  // INTERVAL 'n' unit, SUBSTRING(s FROM a FOR b), POSITION(x IN s), TRIM([LEADING |
  // TRAILING | BOTH] [chars] FROM s). parse_sql_function returns null (consuming
  // nothing) when the call is written as a plain f(a, b).
  AstPtr parse_extract(const Token& start);
  AstPtr parse_interval(const Token& start);
  AstPtr parse_sql_function(const Token& name);
  Type parse_type_name();
  // Window functions (parser_window.cpp): OVER (...) or OVER name after a call, its
  // parenthesized body (also WINDOW name AS (...)), one frame bound, the WINDOW clause.
  std::shared_ptr<const WindowSpecAst> parse_over();
  WindowSpecAst parse_window_body();
  FrameBoundAst parse_frame_bound();
  void parse_window_clause(SelectStatement& s);

  std::string sql_;  // the statement's text (CREATE VIEW keeps its SELECT as written)
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t implicit_alias_pos_ = size_t(-1);  // token index of the last alias written without AS
  bool select_in_parens_ = false;  // COPY (SELECT ...): a ')' may end the SELECT
  int nesting_ = 0;  // current expression nesting (kMaxExpressionNesting bounds it)
};

// Words that cannot be used as unquoted column or table names or as aliases.
bool is_reserved_word(const std::string& lower);

}  // namespace raydb::sql
