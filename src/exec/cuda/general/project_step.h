#pragma once
// Non-aggregate results on the general path: SELECT and ORDER BY columns computed on
// the device; large non-DISTINCT ordered results sorted there too (only rows
// [OFFSET, OFFSET + LIMIT) come back), everything else finished on the host.
#include "exec/core/result_table.h"
#include "exec/cuda/general/general_query.h"

namespace raydb::exec::cuda::general {

void project_rows(GeneralQuery& g, const Tuples& cur, ResultTable& result);

}  // namespace raydb::exec::cuda::general
