#pragma once
// Uniform (rank) encoding (RTScan section 4.1): the column's non-NULL rows sorted by
// value get ranks 0..valid-1 (ties by row id), so every rank is exactly one row and
// ranks spread uniformly over [0, valid) whatever the value distribution. A value that
// occurs m times after r smaller rows holds the interval [r, r + m). NULL rows get the
// ranks [valid, rows) in row order; no predicate interval ever reaches them.
//
// The mapping table (distinct values, first rank of each) rewrites every predicate
// constant exactly by binary search: x < v -> [0, lower(v)), x <= v -> [0, upper(v)),
// x > v -> [upper(v), valid), x >= v -> [lower(v), valid), x = v -> [lower(v),
// upper(v)), BETWEEN a AND b -> [lower(a), upper(b)), IN -> a union of such intervals;
// lower(v) is the first rank of a value >= v, upper(v) of a value > v. Constants below
// the minimum, above the maximum or between values need no special case.
#include <span>

#include "access/rt_scan/rank_set.h"
#include "common/default_init_allocator.h"
#include "access/rt_scan/scan_types.h"

namespace raydb::access::rt_scan {

struct MappingTable {
  uint64_t rows = 0;             // N
  uint32_t valid = 0;            // non-NULL rows
  // FillVector: a GPU build downloads them in full into unwritten memory.
  FillVector<int64_t> values;    // distinct values, ascending
  FillVector<uint32_t> first;    // first rank of values[i]; first[values.size()] = valid;
                                 // empty when every value is distinct (see first_rank)

  // First rank of values[i] (i <= values.size()). A column of distinct values (unique
  // keys, the paper's uniform data) has first_rank(i) == i and keeps no `first` array:
  // its table is a third smaller and a GPU build downloads only the values.
  uint32_t first_rank(size_t i) const { return first.empty() ? static_cast<uint32_t>(i) : first[i]; }
  bool dense() const { return first.empty(); }
  // Drops `first` when it is the identity (every value distinct).
  void compact_if_dense() {
    if (values.size() == valid) FillVector<uint32_t>().swap(first);
  }

  uint32_t lower(int64_t v) const;  // first rank of a value >= v (valid if none)
  uint32_t upper(int64_t v) const;  // first rank of a value > v (valid if none)
  RankSet rewrite(CompareOp op, std::span<const int64_t> constants) const;
  int64_t value_at(uint32_t rank) const;  // rank < valid
  uint64_t bytes() const { return values.size() * sizeof(int64_t) + first.size() * sizeof(uint32_t); }
};

// A column's encoding on the host: the table, each row's rank and (optional) the row of
// each rank (the sorted order, for refining rank intervals without a scan).
struct ColumnEncoding {
  MappingTable table;
  std::vector<uint32_t> ranks;
  std::vector<uint32_t> rows_by_rank;
};

// Built on CPU threads (parallel sort). Throws for 2^32 rows or more.
ColumnEncoding encode_column(const ScanColumn& column, uint32_t column_index, bool keep_rows_by_rank);

// The table from the sorted non-NULL values (any order of ties), e.g. a device sort.
MappingTable table_from_sorted(std::span<const int64_t> sorted, uint64_t rows);

}  // namespace raydb::access::rt_scan
