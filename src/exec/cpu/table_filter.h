#pragma once
// The filters of one table on the CPU: compiled column predicates first (narrowest
// first), then boolean programs over range and semi-linear leaves (FilterProgram),
// then generic predicates through the vectorized evaluator; and the scans
// that apply them, batch by batch or over a whole table.
#include <cstdint>
#include <optional>
#include <vector>

#include "exec/core/block_selection.h"
#include "exec/core/column_predicate.h"
#include "exec/core/filter_program.h"
#include "exec/cpu/joined_rows.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cpu {

struct TableFilter {
  std::vector<ColumnPredicate> columns;
  std::vector<FilterProgram> programs;
  std::vector<plan::ExprPtr> generic;
  bool always_false = false;
  // The zone-map blocks that may pass (exec/core/block_selection.h); unset: scan all.
  std::optional<BlockSelection> blocks;
};

// The kBatch-row batches (by index) a scan of `total` rows reads: those inside
// `f.blocks`' ranges, or all. Block ranges start at multiples of kBatch, so a batch
// keeps the index and rows it has in a full scan.
std::vector<uint32_t> scanned_batches(const TableFilter& f, uint64_t total);

TableFilter compile_filter(const std::vector<plan::ExprPtr>& conjuncts, const plan::LogicalQuery& q);

// Applies generic predicates to the current rows (all bound tables compacted).
void apply_generic(const std::vector<plan::ExprPtr>& preds, const plan::LogicalQuery& q, JoinedRows& rows,
                   std::vector<uint8_t>& keep, std::vector<uint32_t>& sel);

// Fills rows.of[t] with one batch of table t, rows [begin, begin+len) of the scan
// (or of `candidates`, row ids from an index), and applies the table's filters. The
// first column predicate, when there is one, produces the batch straight from the
// dense range.
void scan_batch(const TableFilter& f, size_t t, const plan::LogicalQuery& q, const std::vector<uint32_t>* candidates,
                uint32_t begin, size_t len, JoinedRows& rows, std::vector<uint8_t>& keep, std::vector<uint32_t>& sel);

// Filtered row ids of a whole table, in ascending order. With `candidates` (an
// index scan's rows, ascending) only those rows are read and filtered.
std::vector<uint32_t> scan_table(size_t t, const TableFilter& f, const plan::LogicalQuery& q, int threads,
                                 const std::vector<uint32_t>* candidates = nullptr);

}  // namespace raydb::exec::cpu
