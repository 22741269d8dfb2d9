#include "api/subquery_runner.h"

namespace raydb::api {

sql::TempTable SubqueryRunner::materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) {
  std::vector<Type> types;
  for (auto& e : q.select) types.push_back(e->type);
  const std::vector<std::string> names = q.output_names;
  QueryResult r = run_(std::move(q));
  sql::TempTableBuilder b(name, names, types, what);
  b.reserve(r.row_count());
  const size_t n = r.row_count();
  for (size_t c = 0; c < r.column_count(); c++) {
    const QueryResult::ColumnData& d = r.columns()[c];
    // Whole columns where the result holds them in their stored form; else value by value.
    if (d.ints.size() >= n && n > 0 && b.append_ints(c, d.ints.data(), d.nulls, n)) continue;
    if (d.doubles.size() >= n && n > 0 && b.append_doubles(c, d.doubles.data(), d.nulls, n)) continue;
    if (d.strings.size() >= n && n > 0 && b.append_strings(c, d.strings.data(), d.nulls, n)) continue;
    for (size_t row = 0; row < n; row++) b.append(c, r.get(row, c));
  }
  return b.finish();
}

}  // namespace raydb::api
