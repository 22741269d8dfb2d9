#pragma once
// The connection's sql::QueryRunner: runs a WITH query, derived table, subquery or set
// operation operand through `run` (Database::Impl::run_query with the statement's
// options: backend, threads, settings), on the backend the query driver picks for it,
// and keeps the rows as an sql::TempTable.
#include <functional>

#include "raydb/raydb.h"
#include "sql/query_runner.h"

namespace raydb::api {

class SubqueryRunner : public sql::QueryRunner {
 public:
  using Run = std::function<QueryResult(plan::LogicalQuery)>;
  explicit SubqueryRunner(Run run) : run_(std::move(run)) {}
  sql::TempTable materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) override;

 private:
  Run run_;
};

}  // namespace raydb::api
