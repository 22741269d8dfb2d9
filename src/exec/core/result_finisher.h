#pragma once
// The end of every query, shared by all backends so that their results agree row
// for row: after aggregation HAVING, SELECT and the ORDER BY keys; then DISTINCT,
// ORDER BY (NULLS FIRST|LAST per key; by default last ascending, first descending, as
// PostgreSQL), OFFSET/LIMIT.
#include <vector>

#include "exec/core/memory_budget.h"
#include "exec/core/result_table.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// Aggregate queries: `keys` (one vector per GROUP BY key) and `aggs` (one per
// aggregate) hold `n` groups. Applies HAVING, evaluates the SELECT list and appends
// the ORDER BY keys; returns the output columns and updates `n`.
std::vector<Vector> finish_aggregation(const plan::LogicalQuery& q, std::vector<Vector> keys, std::vector<Vector> aggs,
                                       size_t& n);

// `outputs` holds the SELECT columns followed by one column per ORDER BY item, `n`
// rows. Applies DISTINCT, ORDER BY, OFFSET and LIMIT and stores the SELECT columns
// in `result` (columns, rows). With a `budget` (the CPU backend's cpu_memory_limit), the
// DISTINCT table and the ORDER BY's row permutation are charged before they are built.
void finish_rows(const plan::LogicalQuery& q, std::vector<Vector> outputs, size_t n, ResultTable& result,
                 MemoryBudget* budget = nullptr);

}  // namespace raydb::exec
