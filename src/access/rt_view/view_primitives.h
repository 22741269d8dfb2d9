#pragma once
// Merged primitives of an RT view. Rows with the same group id and the same code of
// every filter attribute are indistinguishable to any request: a request selects rows
// only by filter codes (Z intervals, per-hit code checks, group pruning) and groups
// them only by group id. So they can be one triangle that carries their row count and,
// per aggregate input, their sum, minimum and maximum: COUNT adds counts, SUM adds the
// sums into the same 128-bit accumulators, MIN / MAX take the primitive's extremes,
// AVG is SUM / COUNT. Results are the rows' results exactly, with one primitive per
// distinct tuple instead of one per row (SSB flight 1 at SF 20: ~10^5 tuples for
// 1.2 x 10^8 rows), which shrinks the BVH and the side arrays alike.
#include <cstdint>
#include <optional>
#include <vector>

#include "access/rt_view/view_rows.h"

namespace raydb::rtview {

struct MergedRows {
  uint32_t primitives = 0;
  std::vector<uint32_t> counts;                     // [primitive] rows it stands for
  std::vector<uint32_t> group_ids;                  // [primitive]
  std::vector<std::vector<uint32_t>> filter_codes;  // [attribute][primitive]
  std::vector<std::vector<int64_t>> sum, min, max;  // [input][primitive]
};

// The number of distinct (group, filter codes) tuples, or nullopt when it is above
// max_primitives (known early: a tuple prefix has no more distinct values than the
// whole, so the count stops at the first attribute that passes the limit).
std::optional<uint64_t> count_primitives(const ViewRows& v, uint64_t max_primitives);

// The merged primitives in tuple order (group id, then filter codes in attribute
// order); nullopt over max_primitives or when the sum of an input over one primitive's
// rows does not fit in 64 bits (then the view keeps one primitive per row).
std::optional<MergedRows> merge_rows(const ViewRows& v, uint64_t max_primitives);

}  // namespace raydb::rtview
