#pragma once
// A snowflake join whose outer table only filters: `fact -> D -> B` where B (TPC-H Q21's
// nation, probed through supplier's s_nationkey) is read by nothing but its own filters
// and the join key. When the keys of B's rows that pass its filters are distinct
// (checked on the data), each D row matches at most one B row, so the join is the
// filter `D.col IN (those keys)` on D, and B leaves the star: D stays an ordinary
// dimension of the fact table. Exact: a D row whose key is among them joins exactly
// one B row (its columns unused), any other none, as the join would.
#include <optional>

#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cuda {

// The filter on the probing dimension's column for join `step` (its probe key a column
// of that dimension), or nullopt when B is read elsewhere, its filters are not column
// predicates, a key column holds NULLs or is not an integer, B is large (1 M rows or
// more), or the passing keys repeat.
std::optional<StarFilter> chain_join_filter(const plan::PhysicalPlan& plan, const plan::JoinStep& step);

}  // namespace raydb::exec::cuda
