#include "api/subquery_runner.h"

namespace raydb::api {

sql::TempTable SubqueryRunner::materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) {
  std::vector<Type> types;
  for (auto& e : q.select) types.push_back(e->type);
  const std::vector<std::string> names = q.output_names;
  QueryResult r = run_(std::move(q));
  sql::TempTableBuilder b(name, names, types, what);
  b.reserve(r.row_count());
  for (size_t c = 0; c < r.column_count(); c++)
    for (size_t row = 0; row < r.row_count(); row++) b.append(c, r.get(row, c));
  return b.finish();
}

}  // namespace raydb::api
