#pragma once
// ORDER BY ... LIMIT over many groups: the groups that can reach the result, decided
// from the aggregates alone, so that a backend turns only those groups' keys into
// values (for millions of groups with string keys, the costly part of the finish:
// TPC-H q10 groups 1 M customers by seven keys and keeps 20).
//
// Exact: with the first ORDER BY item reading only aggregates, a group whose value of
// it comes strictly after the (offset + limit)-th smallest (among groups passing
// HAVING) is preceded by at least offset + limit groups, so it is not in the result;
// ties with that value are kept. The finish then runs on the candidates as on all
// groups and gives the same rows, as long as the candidates keep their relative order
// (sort_rows breaks ties by position).
#include <cstdint>
#include <optional>
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// Whether the query can be pruned so: GROUP BY keys, ORDER BY and LIMIT, no DISTINCT
// or windows, and HAVING and the first ORDER BY item (a SELECT item when it names one)
// read aggregates and constants only. `aggs_read` (when applicable): per aggregate,
// whether the decision reads it (the others need not be computed for every group).
bool prunable_top_groups(const plan::LogicalQuery& q, std::vector<bool>* aggs_read = nullptr);

// The expression the pruning ranks by: the first ORDER BY item, a SELECT item when it
// names one.
const plan::Expr& top_groups_order_expr(const plan::LogicalQuery& q);

// The candidates, ascending, for a prunable query over n groups whose aggregates are
// `aggs` (those aggs_read names hold n values each; others may be empty). nullopt when
// pruning would keep at least half the groups (not worth a second pass).
std::optional<std::vector<uint32_t>> top_group_candidates(const plan::LogicalQuery& q, const std::vector<Vector>& aggs,
                                                          size_t n);

}  // namespace raydb::exec
