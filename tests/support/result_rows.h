#pragma once
// Query results as typed text cells, compared exactly between backends (or between
// two modes of one backend): row for row when the query orders its rows, as
// multisets otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::test {

using CellRows = std::vector<std::vector<std::string>>;

// Every cell as "TYPE:value", so a type difference is a difference.
inline CellRows rows_of(const QueryResult& r) {
  CellRows out(r.row_count());
  for (size_t i = 0; i < r.row_count(); i++)
    for (size_t c = 0; c < r.column_count(); c++) {
      Value v = r.get(i, c);
      out[i].push_back(v.type().to_string() + ":" + v.to_string());
    }
  return out;
}

inline bool has_order_by(std::string sql) {
  std::transform(sql.begin(), sql.end(), sql.begin(), ::tolower);
  return sql.find("order by") != std::string::npos;
}

inline ::testing::AssertionResult same_rows(CellRows a, CellRows b, bool ordered, const std::string& what) {
  if (!ordered) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
  }
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "rows: " << a.size() << " vs " << b.size() << " for " << what;
  for (size_t i = 0; i < a.size(); i++)
    if (a[i] != b[i]) {
      std::string x, y;
      for (auto& s : a[i]) x += s + " ";
      for (auto& s : b[i]) y += s + " ";
      return ::testing::AssertionFailure() << "row " << i << ": [" << x << "] vs [" << y << "] for " << what;
    }
  return ::testing::AssertionSuccess();
}

// Two results of `sql` (the CPU's first), ordered as the query orders them.
inline ::testing::AssertionResult same(const QueryResult& cpu, const QueryResult& other, const std::string& sql) {
  return same_rows(rows_of(cpu), rows_of(other), has_order_by(sql), sql);
}

}  // namespace raydb::test
