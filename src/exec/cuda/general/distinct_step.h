#pragma once
// SELECT DISTINCT on the device for large results: the SELECT columns are grouped
// through the GROUP BY hash table (group_ids.h) and only one row per distinct tuple
// comes back, instead of every row (a semi join's key list: TPC-H Q4's EXISTS keeps
// 1 M of 3 M rows at SF 20, Q21's key reduction 1.4 M of 1.5 M) being copied and
// deduplicated by the host finisher. Rows come back in group order (ascending keys);
// the host finisher then only copies them.
#include <cstdint>
#include <vector>

#include "exec/core/result_table.h"
#include "exec/cuda/general/general_query.h"

namespace raydb::exec::cuda::general {

// Whether this query's DISTINCT runs on the device over n rows: no ORDER BY, LIMIT or
// OFFSET (their rows would depend on which duplicate comes first), every SELECT column
// an integer, HUGEINT or dictionary code (equal values, equal words; DOUBLE's -0/NaN and
// run-time strings stay on the host), and enough rows to pay for the table.
bool distinct_on_device(const GeneralQuery& g, uint64_t n);

// The distinct tuples of `cols` (the SELECT columns, n rows) as host vectors; `rows`
// gets their number.
std::vector<Vector> distinct_rows(GeneralQuery& g, const std::vector<Column128>& cols, uint64_t n,
                                  StringInterner& interner, uint64_t& rows);

}  // namespace raydb::exec::cuda::general
