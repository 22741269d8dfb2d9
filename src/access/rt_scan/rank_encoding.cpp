#include "access/rt_scan/rank_encoding.h"
#include "access/rt_scan/tie_order.h"

#include <omp.h>

#include <parallel/algorithm>

#include "common/error.h"

namespace raydb::access::rt_scan {

uint32_t MappingTable::lower(int64_t v) const {
  return first_rank(static_cast<size_t>(std::lower_bound(values.begin(), values.end(), v) - values.begin()));
}

uint32_t MappingTable::upper(int64_t v) const {
  return first_rank(static_cast<size_t>(std::upper_bound(values.begin(), values.end(), v) - values.begin()));
}

int64_t MappingTable::value_at(uint32_t rank) const {
  if (dense()) return values[rank];
  return values[std::upper_bound(first.begin(), first.end() - 1, rank) - first.begin() - 1];
}

RankSet MappingTable::rewrite(CompareOp op, std::span<const int64_t> c) const {
  const bool unary = op != CompareOp::kBetween && op != CompareOp::kIn;
  if ((unary && c.size() != 1) || (op == CompareOp::kBetween && c.size() != 2))
    fail(ErrorKind::kInvalidInput, "rt scan: predicate with {} constants", c.size());
  RankSet s;
  switch (op) {
    case CompareOp::kLess: s = {{0, lower(c[0])}}; break;
    case CompareOp::kLessEqual: s = {{0, upper(c[0])}}; break;
    case CompareOp::kGreater: s = {{upper(c[0]), valid}}; break;
    case CompareOp::kGreaterEqual: s = {{lower(c[0]), valid}}; break;
    case CompareOp::kEqual: s = {{lower(c[0]), upper(c[0])}}; break;
    case CompareOp::kNotEqual: s = {{0, lower(c[0])}, {upper(c[0]), valid}}; break;
    case CompareOp::kBetween:
      if (c[0] <= c[1]) s = {{lower(c[0]), upper(c[1])}};
      break;
    case CompareOp::kIn:
      for (int64_t v : c) s.push_back({lower(v), upper(v)});
      break;
  }
  return normalized(std::move(s));
}

MappingTable table_from_sorted(std::span<const int64_t> sorted, uint64_t rows) {
  MappingTable t;
  t.rows = rows;
  t.valid = static_cast<uint32_t>(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i == 0 || sorted[i] != sorted[i - 1]) {
      t.values.push_back(sorted[i]);
      t.first.push_back(static_cast<uint32_t>(i));
    }
  }
  t.first.push_back(t.valid);
  t.compact_if_dense();
  return t;
}

namespace {

// A non-NULL row in sort order: by value, ties in tie_order.
struct Entry {
  int64_t value;
  uint32_t tie;  // tie_order(row, column)
  uint32_t row;
  bool operator<(const Entry& o) const { return value != o.value ? value < o.value : tie < o.tie; }
};

}  // namespace

ColumnEncoding encode_column(const ScanColumn& column, uint32_t column_index, bool keep_rows_by_rank) {
  const int64_t n = static_cast<int64_t>(column.values.size());
  if (static_cast<uint64_t>(n) >= (uint64_t{1} << 32)) fail(ErrorKind::kInvalidInput, "rt scan: {} rows exceed 2^32 - 1", n);
  if (!column.nulls.empty() && column.nulls.size() < static_cast<size_t>((n + 63) / 64))
    fail(ErrorKind::kInvalidInput, "rt scan: null bitmap shorter than the column");
  auto entry = [&](int64_t i) {
    const uint32_t row = static_cast<uint32_t>(i);
    return Entry{column.values[i], tie_order(row, column_index), row};
  };
  std::vector<Entry> e;
  std::vector<uint32_t> null_rows;  // NULL rows take the ranks [valid, n), in row order
  if (column.nulls.empty()) {
    e.resize(n);
#pragma omp parallel for schedule(static) if(n > kParallelMin)
    for (int64_t i = 0; i < n; ++i) e[i] = entry(i);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      if (column.is_null(static_cast<size_t>(i)))
        null_rows.push_back(static_cast<uint32_t>(i));
      else
        e.push_back(entry(i));
    }
  }
  __gnu_parallel::sort(e.begin(), e.end());  // OpenMP threads
  ColumnEncoding out;
  MappingTable& t = out.table;
  t.rows = static_cast<uint64_t>(n);
  t.valid = static_cast<uint32_t>(e.size());
  out.ranks.resize(n);
  if (keep_rows_by_rank) out.rows_by_rank.resize(n);
  const int64_t valid = static_cast<int64_t>(e.size());
#pragma omp parallel for schedule(static) if(n > kParallelMin)
  for (int64_t r = 0; r < n; ++r) {
    const uint32_t row = r < valid ? e[r].row : null_rows[r - valid];
    out.ranks[row] = static_cast<uint32_t>(r);
    if (keep_rows_by_rank) out.rows_by_rank[r] = row;
  }
  for (int64_t r = 0; r < valid; ++r) {
    if (r == 0 || e[r].value != e[r - 1].value) {
      t.values.push_back(e[r].value);
      t.first.push_back(static_cast<uint32_t>(r));
    }
  }
  t.first.push_back(t.valid);
  t.compact_if_dense();
  return out;
}

}  // namespace raydb::access::rt_scan
