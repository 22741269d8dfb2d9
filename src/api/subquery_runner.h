#pragma once
// The connection's sql::QueryRunner: runs a WITH query, derived table, subquery or set
// operation operand through `run` (Database::Impl::run_query with the statement's
// options: backend, threads, settings), on the backend the query driver picks for it,
// and keeps the rows as an sql::TempTable.
#include <cstdint>
#include <functional>
#include <vector>

#include "raydb/raydb.h"
#include "sql/query_runner.h"

namespace raydb::api {

// Table functions called on this thread so far: a statement that read files while
// binding is not kept in the plan cache (the files may change behind the catalog).
uint64_t table_functions_called();
// Cells (rows x columns) that binding materialized on this thread so far (subqueries,
// WITH queries, derived tables, plain views' rows): a statement that made many is not
// kept in the plan cache, which would hold them in memory.
uint64_t cells_materialized();
void count_materialized(uint64_t cells);

class SubqueryRunner : public sql::QueryRunner {
 public:
  using Run = std::function<QueryResult(plan::LogicalQuery)>;
  explicit SubqueryRunner(Run run) : run_(std::move(run)) {}
  sql::TempTable materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) override;
  // read_parquet('f.parquet', ...) and read_csv_auto('f.csv', ...) (also read_csv):
  // the files read into memory as the loaders read them, types as `raydb load` maps or
  // sniffs them; nothing is written.
  TablePtr table_function(const std::string& name, const std::vector<std::string>& args) override;
  // Wall time spent in materialize (the blocks' runs and their rows kept), for the
  // statement's trace line: binding minus this is the binder's own work.
  double blocks_ms() const { return blocks_ms_; }

 private:
  Run run_;
  double blocks_ms_ = 0;
  // The blocks this statement ran and their rows: a block the same as one of them
  // (plan::same_query: same tables, filters, output) takes its rows instead of running
  // again. The statement's tables do not change while it binds.
  struct Ran {
    plan::LogicalQuery q;
    sql::TempTable rows;
  };
  std::vector<Ran> ran_;
};

}  // namespace raydb::api
