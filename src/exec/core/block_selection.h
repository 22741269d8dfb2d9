#pragma once
// Data skipping: which blocks of a table's rows can hold a row that passes its filters,
// decided from the columns' zone maps (storage/zone_map.h) before any value is read.
// The result is a list of row ranges that every backend can stream instead of the whole
// table: the CPU scan walks its batches inside them; a GPU scan can upload or launch
// over them alike (docs/ARCHITECTURE.md, "Data skipping").
//
// Exact: a block is dropped only when some conjunct is FALSE or NULL on every row of
// it. Conjuncts used: range/equality/IN/LIKE predicates over one column (what
// ColumnPredicate compiles: stored-integer ranges, VARCHAR codes) and comparisons,
// BETWEEN and IN over one DOUBLE column. A nullable column's read (CASE WHEN null flag
// THEN NULL ELSE column END) counts as the column: such predicates are never TRUE on a
// NULL, so the non-NULL min/max decide; a block of only NULLs is dropped. A DOUBLE
// block holding a NaN is always kept (NaN sorts above every value).
#include <cstdint>
#include <optional>
#include <vector>

#include "plan/logical/logical_query.h"

namespace raydb::exec {

struct RowRange {
  uint64_t begin = 0, end = 0;  // rows [begin, end)
};

struct BlockSelection {
  std::vector<RowRange> ranges;  // rows that may pass, ascending, disjoint, adjacent blocks merged
  uint64_t blocks = 0;           // zone-map blocks of the table (0: no zone map was usable)
  uint64_t skipped = 0;          // blocks dropped
  uint64_t rows() const;         // rows inside `ranges`
};

// The blocks of table `t` of `q` that may hold a row passing all of `conjuncts` (the
// table's filters). Without a usable zone map (a heap table, an old database, no
// conjunct of the shapes above) the one range is the whole table.
BlockSelection select_blocks(size_t t, const std::vector<plan::ExprPtr>& conjuncts, const plan::LogicalQuery& q);

// Narrows `s` (a selection of table `t`, or unset: the whole table) to the blocks
// where column `c` may hold a value in [lo, hi] (lo > hi: none), e.g. the range of the
// build keys an inner join's probe column must meet. Unchanged without a usable zone
// map on `c`.
void restrict_blocks(std::optional<BlockSelection>& s, size_t t, int c, int64_t lo, int64_t hi,
                     const plan::LogicalQuery& q);

// `s` in at most `max_ranges` ranges (at least 1): the shortest gaps between its
// ranges are read as well, their blocks counted as scanned. For a backend that pays
// per range (the CUDA star path launches its fact kernel once per range), reading a
// few more blocks beats many small launches; reading more never drops a row.
BlockSelection coalesce_ranges(const BlockSelection& s, size_t max_ranges);

}  // namespace raydb::exec
