#pragma once
// Scan and filter one table: every row (or an index scan's candidates), then the
// table's filters in the CPU's order, each on the rows the earlier ones kept.
#include "exec/cuda/general/general_query.h"

namespace raydb::exec::cuda::general {

Tuples scan_table(GeneralQuery& g, int table);

}  // namespace raydb::exec::cuda::general
