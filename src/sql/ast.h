#pragma once
// Parse tree of one SQL statement, as written: names are unresolved and nothing is
// typed yet. The Parser builds it, the Binder turns it into a plan::LogicalQuery.
#include <memory>
#include <string>
#include <vector>

#include "raydb/types.h"
#include "raydb/value.h"

namespace raydb::sql {

enum class AstKind {
  kColumn,    // [qualifier.]name
  kStar,      // * or qualifier.* (select list and count(*) only)
  kLiteral,   // value (already typed: INTEGER/BIGINT, DECIMAL, DOUBLE, VARCHAR, DATE, BOOLEAN, NULL)
  kUnary,     // op "-", "+" or "not"; children[0]
  kBinary,    // op "+" "-" "*" "/" "%" "=" "<>" "<" "<=" ">" ">=" "and" "or"; children[0..1]
  kBetween,   // children: operand, low, high; negated
  kInList,    // children: operand, items...; negated
  kLike,      // children: operand, pattern; negated; op "like" or "ilike"
  kIsNull,    // children[0]; negated => IS NOT NULL
  kFunction,  // name(args) / name(*) / name(DISTINCT arg)
  kCase,      // [operand] WHEN c THEN v ... [ELSE e] END
  kCast,      // CAST(children[0] AS cast_type) or children[0]::cast_type
  kInterval,  // INTERVAL 'n' unit: value = n (BIGINT), name = "day", "month" or "year"
  kSubquery,  // (SELECT ...) as a value; EXISTS (SELECT ...) when op == "exists" (negated: NOT EXISTS)
};

struct SelectStatement;

struct AstExpr;
using AstPtr = std::shared_ptr<AstExpr>;

// One bound of a window frame: UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW,
// n FOLLOWING or UNBOUNDED FOLLOWING (`offset` holds n).
struct FrameBoundAst {
  enum class Kind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kUnboundedPreceding;
  std::shared_ptr<AstExpr> offset;
};

// OVER ( [base] [PARTITION BY ...] [ORDER BY ...] [frame] ) or OVER name.
struct WindowSpecAst {
  struct Order {
    std::shared_ptr<AstExpr> expr;
    bool descending = false;
    int nulls = 0;  // 0: default (last ascending, first descending), 1: NULLS FIRST, 2: NULLS LAST
  };
  std::string base;  // a named window (WINDOW name AS (...)) this one refines; "" when none
  std::vector<std::shared_ptr<AstExpr>> partition;
  std::vector<Order> order;
  bool has_frame = false;
  enum class Unit { kRows, kRange, kGroups };
  Unit unit = Unit::kRange;
  FrameBoundAst start, end;
  int line = 1, column = 1;
  std::string to_string() const;
};

struct AstExpr {
  AstKind kind = AstKind::kLiteral;
  int line = 1, column = 1;  // where the expression starts, for messages

  std::string qualifier;  // kColumn, kStar: table name or alias ("" when none)
  std::string name;       // kColumn: column name; kFunction: lower-cased function name
  bool quoted = false;    // kColumn: name was "double quoted"

  Value value;       // kLiteral
  std::string text;  // kLiteral: the literal as written (for expression text)

  std::string op;          // kUnary, kBinary
  bool negated = false;    // kBetween, kInList, kLike, kIsNull
  bool distinct = false;   // kFunction
  bool star_arg = false;   // kFunction: name(*)
  // kFunction: f(args) WITHIN GROUP (ORDER BY x [DESC]); x is the last child.
  bool within_group = false;
  bool within_desc = false;
  bool has_operand = false;  // kCase: CASE operand WHEN ...; children[0] is the operand
  bool has_else = false;     // kCase: the last child is the ELSE value
  Type cast_type;            // kCast
  std::vector<AstPtr> children;  // kCase: [operand], when0, then0, when1, then1, ..., [else]
  // kFunction: f(...) OVER (...): a window function call (null when not one).
  std::shared_ptr<const WindowSpecAst> over;
  // kSubquery; kInList: x [NOT] IN (SELECT ...) has children = {x} and this query.
  std::shared_ptr<const SelectStatement> subquery;
  // Frees a deep tree (a chain of 30,000 terms) without recursing once per level.
  ~AstExpr();

  // Canonical SQL text: lower-case keywords and names, minimal parentheses. Used for
  // output column names (e.g. "sum(lo_revenue)") and in error messages.
  std::string to_string() const;
};

struct SelectItem {
  AstPtr expr;        // kStar for * and t.*
  std::string alias;  // empty when none
};

struct TableItem {
  std::string name;   // as written (lower-cased unless quoted)
  std::string alias;  // empty when none
  int line = 1, column = 1;
  AstPtr on;  // JOIN ... ON condition; null for FROM lists, CROSS JOIN and the first table
  // LEFT / RIGHT / FULL [OUTER] JOIN: the join of everything before this item with it.
  enum class Join { kInner, kLeft, kRight, kFull };
  Join join = Join::kInner;
  // A derived table: FROM (SELECT ...) [AS] alias [(column, ...)]; `name` is empty.
  std::shared_ptr<const SelectStatement> subquery;
  std::vector<std::string> column_aliases;
  // A table function: FROM read_parquet('f.parquet') [AS] alias; `name` is the function,
  // `function_args` its string arguments (file names).
  bool function = false;
  std::vector<std::string> function_args;
};

// WITH name [(column, ...)] AS (SELECT ...): a non-recursive common table expression.
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const SelectStatement> select;
  int line = 1, column = 1;
};

enum class SetOp { kNone, kUnion, kIntersect, kExcept };

struct OrderByItem {
  AstPtr expr;
  bool descending = false;
  int nulls = 0;  // 0: default (last ascending, first descending), 1: NULLS FIRST, 2: NULLS LAST
};

// Whether an ORDER BY key (window or query) sorts NULLs first: as written, else
// PostgreSQL's default (NULLs are larger than every value: last ascending, first descending).
inline bool sorts_nulls_first(bool descending, int nulls) { return nulls == 0 ? descending : nulls == 1; }

struct SelectStatement {
  std::vector<CommonTableExpr> with;  // WITH ... before this query; later ones see earlier ones
  // A set operation `left op [ALL] right`: select, from, where, group_by and having are
  // empty; order_by, limit and offset apply to the combined rows.
  SetOp set_op = SetOp::kNone;
  bool set_all = false;
  std::shared_ptr<const SelectStatement> left, right;
  int set_line = 1, set_column = 1;  // where the operator is written
  bool distinct = false;
  std::vector<SelectItem> select;
  std::vector<TableItem> from;  // empty for SELECT without FROM
  AstPtr where;
  std::vector<AstPtr> group_by;
  AstPtr having;
  // WINDOW name AS (...), ...: named windows that OVER clauses of this block refer to.
  std::vector<std::pair<std::string, WindowSpecAst>> windows;
  std::vector<OrderByItem> order_by;
  AstPtr limit;   // null when absent
  AstPtr offset;  // null when absent
};

// CREATE INDEX name ON table (column, ...) [USING RT|SORTED|HASH|RTSCAN] [WITH (option = value, ...)]
// (several columns only with RTSCAN)
struct CreateIndexStatement {
  std::string name, table, column;  // column: the first of `columns`
  std::vector<std::string> columns;
  std::string kind = "rt";  // lower case; RT when USING is absent
  std::vector<std::pair<std::string, std::string>> options;  // names lower-cased, values as written
};

// DROP INDEX [IF EXISTS] name
struct DropIndexStatement {
  std::string name;
  bool if_exists = false;
};

// CREATE RT VIEW name AS SELECT * FROM fact JOIN dim ON fk = key [JOIN ...]
//   WITH (FILTER = (col, ...), GROUP = (col, ...), AGGREGATE = (expr, ...))
// The roles are column references (filters, groups) and integer expressions of + - *
// over columns and integer literals (aggregate inputs); the api layer checks them.
struct CreateRtViewStatement {
  std::string name;
  std::vector<TableItem> from;  // the fact table first, then JOIN ... ON items
  std::vector<AstPtr> filters, groups, aggregates;
};

// DROP [RT] VIEW [IF EXISTS] name. DROP VIEW drops a plain view of that name, else an
// RT view; DROP RT VIEW only RT views.
struct DropRtViewStatement {
  std::string name;
  bool if_exists = false;
  bool rt = false;  // written DROP RT VIEW
};

// One column of CREATE TABLE: name TYPE [NOT NULL].
struct ColumnDefinition {
  std::string name;
  Type type;
  bool not_null = false;
};

// CREATE TABLE [IF NOT EXISTS] name (col TYPE [NOT NULL], ...) | CREATE TABLE name AS SELECT ...
struct CreateTableStatement {
  std::string name;
  bool if_not_exists = false;
  std::vector<ColumnDefinition> columns;  // empty for CREATE TABLE ... AS
  bool as_select = false;
  SelectStatement select;  // as_select
};

// DROP TABLE [IF EXISTS] name
struct DropTableStatement {
  std::string name;
  bool if_exists = false;
};

// INSERT INTO name [(col, ...)] VALUES (expr, ...), ... | INSERT INTO name [(col, ...)] SELECT ...
struct InsertStatement {
  std::string table;
  std::vector<std::string> columns;      // empty: every column in table order
  std::vector<std::vector<AstPtr>> rows;  // VALUES
  bool from_select = false;
  SelectStatement select;  // from_select
};

// COPY name FROM 'file' [WITH] [(HEADER [bool], DELIMITER 'c', NULL 'x', FORMAT CSV|PARQUET)]
// COPY name | (SELECT ...) TO 'file' [WITH] [(HEADER [bool], DELIMITER 'c', NULL 'x', FORMAT CSV|PARQUET)]
struct CopyStatement {
  bool to = false;         // COPY ... TO
  std::string table;       // COPY name ...; empty for COPY (SELECT ...) TO
  SelectStatement select;  // COPY (SELECT ...) TO, or SELECT * FROM name for COPY name TO
  std::string file;
  bool header = false;
  char delimiter = ',';
  std::string null_string;         // NULL 'text': read as / written for NULL (default: empty field)
  bool null_string_given = false;
  // FORMAT PARQUET, or a file name ending in .parquet without FORMAT CSV (as DuckDB).
  bool parquet = false;
};

// CREATE VIEW name AS SELECT ...: a plain view, kept as its SQL text.
struct CreateViewStatement {
  std::string name;
  std::string sql;  // the SELECT as written
  SelectStatement select;
};

// SET name = value | SET name TO value | RESET name | SHOW name: a connection setting.
struct SettingStatement {
  std::string name;   // lower case
  std::string value;  // as written (string literals unquoted); empty for RESET and SHOW
};

// DELETE FROM name [WHERE cond] | UPDATE name SET col = expr, ... [WHERE cond]. The
// parser writes the work as one SELECT over every row of the table:
//   SELECT *, <SET values in order>, CASE WHEN cond THEN 1 ELSE 0 END FROM name
// (the flag is the constant 1 without WHERE), so the binder and the executors need
// nothing new; api/ builds the table's new rows from its result.
struct ModifyStatement {
  bool update = false;
  std::string table;
  std::vector<std::string> set_columns;  // UPDATE, in order
  std::vector<bool> set_literal;         // the value is a quoted literal ('2024-01-02' into a DATE)
  SelectStatement select;
};

enum class StatementType {
  kSelect, kCreateIndex, kDropIndex, kSet, kReset, kShow, kCreateRtView, kDropRtView,
  kCreateTable, kDropTable, kInsert, kCopy, kCreateView, kModify
};

struct Statement {
  StatementType type = StatementType::kSelect;
  bool explain = false;  // kSelect only
  bool analyze = false;  // EXPLAIN ANALYZE: run the query, then show actual rows and times
  SelectStatement select;
  CreateIndexStatement create_index;
  DropIndexStatement drop_index;
  SettingStatement setting;  // kSet, kReset, kShow
  CreateRtViewStatement create_rt_view;
  DropRtViewStatement drop_rt_view;
  CreateTableStatement create_table;
  DropTableStatement drop_table;
  InsertStatement insert;
  CopyStatement copy;
  CreateViewStatement create_view;
  ModifyStatement modify;  // kModify
};

}  // namespace raydb::sql
