#pragma once
// Scan and filter one table: the rows of the blocks its zone maps leave (or an index
// scan's candidates) through the table's filters in one pass, in the CPU's order per
// row (scan_kernels.h); only the kept row ids are written.
#include "exec/cuda/general/general_query.h"

namespace raydb::exec::cuda::general {

Tuples scan_table(GeneralQuery& g, int table);

}  // namespace raydb::exec::cuda::general
