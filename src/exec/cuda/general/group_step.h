#pragma once
// GROUP BY and aggregates on the general path: group ids (hash table, or a sort when
// cuda_group = sort), the group keys at each group's first row, per aggregate its
// per-group results loaded into the CPU's AggregateStates, groups put in ascending
// encoded-key order, then the shared finisher.
#include "exec/core/result_table.h"
#include "exec/cuda/general/general_query.h"

namespace raydb::exec::cuda::general {

void aggregate_rows(GeneralQuery& g, const Tuples& cur, ResultTable& result);

}  // namespace raydb::exec::cuda::general
