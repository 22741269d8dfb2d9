#pragma once
// Entry point of the SQL layer: text -> AST -> bound logical plan.
//
// Pipeline: Lexer (lexer.h) -> Parser -> AST (ast.h) -> Binder (binder.h, with
// ExpressionBinder, type_rules.h, constant_folder.h) -> plan::LogicalQuery.
// Dialect: [EXPLAIN] SELECT [DISTINCT] items FROM t [AS a], u [INNER] JOIN v ON ...
// [CROSS JOIN w] [WHERE] [GROUP BY expr|alias|ordinal] [HAVING] [ORDER BY
// expr|alias|ordinal [ASC|DESC]] [LIMIT n] [OFFSET m]; count/sum/min/max/avg with
// DISTINCT; CASE, CAST and ::, BETWEEN, IN, LIKE, IS [NOT] NULL; DATE '...' literals.
// WITH (non-recursive), derived tables FROM (SELECT ...) [AS] a [(cols)], uncorrelated
// scalar / IN / EXISTS subqueries and UNION/INTERSECT/EXCEPT [ALL] run through a
// QueryRunner (binder_structure.cpp). Outer joins, correlated subqueries and scalar
// functions are kNotImplemented or kBinder errors that say so.
// Settings: SET name = value (or TO), RESET name, SHOW name; the connection checks
// the name and value (common/settings.h).
// DDL: CREATE INDEX name ON table (column) [USING RT|SORTED|HASH] [WITH (option =
// value, ...)] and DROP INDEX [IF EXISTS] name. They are parsed here and carried out
// by the catalog (DatabaseDirectory), which resolves the names.
// Tables: CREATE TABLE, CREATE TABLE AS SELECT, DROP TABLE, INSERT INTO ... VALUES |
// SELECT, COPY t FROM 'f' / COPY (SELECT ...) TO 'f', CREATE VIEW / DROP VIEW; parsed
// and their SELECTs bound here, carried out by api/ (table_ddl, view_ddl).
// RT views: CREATE RT VIEW name AS SELECT * FROM fact JOIN dim ON fk = key ... WITH
// (FILTER = (cols), GROUP = (cols), AGGREGATE = (integer exprs)) and DROP [RT] VIEW
// [IF EXISTS] name; parsed here, checked and materialized by api/ (rt_view_ddl).
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <string_view>

#include "plan/logical/logical_query.h"
#include "sql/ast.h"
#include "storage/index_definition.h"
#include "storage/table.h"

namespace raydb::sql {

class QueryRunner;  // query_runner.h

// Looks a table up by name (case-insensitive); nullptr when it does not exist.
using TableResolver = std::function<TablePtr(std::string_view name)>;
// The SQL text of the plain view `name` (case-insensitive); nullopt when it is not one.
// Given to the binder, simple views are inlined (view_inliner.h).
using ViewLookup = std::function<std::optional<std::string>(std::string_view name)>;

enum class StatementKind {
  kSelect, kExplain, kCreateIndex, kDropIndex, kSet, kReset, kShow, kCreateRtView, kDropRtView,
  kCreateTable, kDropTable, kInsert, kCopy, kCreateView, kModify
};

struct BoundStatement {
  StatementKind kind = StatementKind::kSelect;
  plan::LogicalQuery query;  // kSelect, kExplain
  bool analyze = false;      // kExplain: EXPLAIN ANALYZE (run it, report actual rows and times)
  IndexDefinition index;     // kCreateIndex (names as written); kDropIndex: name only
  bool if_exists = false;    // kDropIndex
  std::string setting;       // kSet, kReset, kShow: the setting's name
  std::string value;         // kSet: its value as written
  CreateRtViewStatement rt_view;  // kCreateRtView (unresolved: api/ resolves it against the catalog)
  std::string view_name;          // kDropRtView (if_exists as for indexes)
  bool rt_only = false;           // kDropRtView: written DROP RT VIEW
  // Tables and plain views. `query` holds the bound SELECT of CREATE TABLE AS,
  // INSERT ... SELECT, COPY (SELECT ...) TO and CREATE VIEW; api/ resolves the target
  // table and checks the columns against it.
  bool has_query = false;
  CreateTableStatement create_table;  // kCreateTable (select unbound; see query)
  DropTableStatement drop_table;      // kDropTable
  InsertStatement insert;             // kInsert
  std::vector<std::vector<plan::ExprPtr>> values;  // kInsert VALUES: each entry bound, no columns visible
  CopyStatement copy;                 // kCopy
  CreateViewStatement create_view;    // kCreateView
  ModifyStatement modify;             // kModify: UPDATE, DELETE (its SELECT bound into `query`)
};

// Parses and binds one statement (a trailing ';' is allowed). Throws Error(kParse)
// with "line L, column C" of the offending token, or Error(kBinder) for unknown
// tables/columns, ambiguous names, type mismatches and aggregate misuse.
// `runner` runs WITH queries, derived tables, subqueries and set operations' operands
// while binding (query_runner.h); without one they are errors.
BoundStatement parse_and_bind(std::string_view sql, const TableResolver& resolve, const ViewLookup& views = {},
                              QueryRunner* runner = nullptr);
// The two halves of parse_and_bind, for callers that look at the statement first.
Statement parse(std::string_view sql);
BoundStatement bind(Statement st, const TableResolver& resolve, const ViewLookup& views = {},
                    QueryRunner* runner = nullptr);

}  // namespace raydb::sql
