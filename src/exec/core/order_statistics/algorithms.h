#pragma once
// The CPU selection algorithms behind select_keys (selection.h), internal to
// order_statistics/. Each takes ranks in select_keys' layout (groups * m, kNoRank for
// none) and writes the selected keys into `out` (same layout, zeroed by the caller).
#include <cstdint>
#include <vector>

#include "exec/core/order_statistics/column_input.h"
#include "exec/core/order_statistics/selection.h"

namespace raydb::exec::orderstat::detail {

// The paper's bitwise selection: one counting pass per key bit.
void bitwise_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, int threads,
                    std::vector<uint64_t>& out);

// Radix select with one histogram per (group, distinct prefix) per pass; the chosen
// buckets are copied out once they are small.
void histogram_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, int threads,
                      std::vector<uint64_t>& out);

// Keys scattered into one segment per group, then each segment sorted (sort) or
// radix-selected in cache.
void segmented_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, bool sort,
                      int threads, std::vector<uint64_t>& out);

}  // namespace raydb::exec::orderstat::detail
