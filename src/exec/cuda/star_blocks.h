#pragma once
// Data skipping on the CUDA star path (exec/core/block_selection.h). On the host,
// before any device work: the fact table's zone-map blocks that may hold a row passing
// the root conjuncts, narrowed by the passing-key range of each small filtered
// dimension (as the CPU narrows by a join's build keys: SSB's date filters bound
// lo_orderdate). The fact kernel then runs once per range of selected blocks, its
// columns starting at the range's first row. The kernel is unchanged: a query that
// skips nothing makes the one launch over the whole table it made before.
#include <cstdint>
#include <optional>
#include <utility>

#include "exec/core/block_selection.h"
#include "exec/cuda/kernel_params.h"
#include "exec/cuda/star_plan.h"

namespace raydb::exec::cuda {

// Most fact-kernel launches per pass: beyond, ranges merge over their shortest gaps
// (coalesce_ranges), as a launch of a few blocks fills little of the GPU.
constexpr size_t kMaxFactLaunches = 8;
// Dimensions of at most this many rows have their filters evaluated on the host for
// their passing-key range (SSB's date: 2,556 rows; a few hundred microseconds at most).
constexpr uint64_t kHostKeyRangeRows = uint64_t(1) << 17;

// The [min, max] stored key of the rows of `d` that pass its filters (min > max: no
// row passes); nullopt when `d` has no filter, more than `row_limit` rows or a filter
// on a DOUBLE column. A NULL's placeholder value only widens the range.
std::optional<std::pair<int64_t, int64_t>> passing_key_range(const StarDim& d, uint64_t row_limit);

// The fact blocks the star kernel must read, in at most kMaxFactLaunches ranges;
// nullopt when no zone map is usable or every block is read anyway. A dimension's
// keys are used only when the foreign key's blocks are clustered (some block spans
// less than half of its values, as when the table is sorted by it).
std::optional<BlockSelection> fact_blocks(const StarPlan& sp, const plan::LogicalQuery& q);

// `p` for fact rows [r.begin, r.end): every fact column and per-row array starts at
// r.begin, which must be a multiple of the kernel's tile (kStarTileRows; zone-map
// blocks are), so every vector load stays aligned and every per-row bit chunk whole.
StarParams params_for_rows(const StarParams& p, RowRange r);
// The packed copies for the same rows: each starts at r.begin's miniblock (a tile
// start is a whole number of 1024-row miniblocks, storage/packed_layout.h).
PackedCols packed_for_rows(const PackedCols& p, RowRange r);

}  // namespace raydb::exec::cuda
