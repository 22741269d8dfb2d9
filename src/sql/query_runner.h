#pragma once
// What the binder needs from the layer that runs queries: a bound SELECT block run now
// and its rows kept as a TempTable. WITH queries, derived tables, uncorrelated
// subqueries and the operands of set operations are planned and run this way, each
// once, on whichever backend takes them; the outer block then reads the result like a
// stored table (api/ implements it; see docs/ARCHITECTURE.md, "Query structure").
#include <string>
#include <vector>

#include "plan/logical/logical_query.h"
#include "sql/temp_table.h"

namespace raydb::sql {

class QueryRunner {
 public:
  virtual ~QueryRunner() = default;
  // Runs `q` and returns its rows as a table named `name`, columns named by
  // q.output_names; `what` names it in errors ("WITH query x", "derived table t").
  virtual TempTable materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) = 0;
  // The rows of table function `name` over `args` (read_parquet, read_csv_auto: file
  // names), read now into memory; errors name the function and the file.
  virtual TablePtr table_function(const std::string& name, const std::vector<std::string>& args) = 0;
};

}  // namespace raydb::sql
