#pragma once
// Arrow record batches (a struct array through the C Data Interface) as raydb columns:
// the Python package's register() and load_parquet() come through here. The Python
// side first casts every column to one of the layouts read here (int32, int64,
// float64, decimal128(p<=18,s), date32, utf8/large_utf8); anything else is an error.
#include <cstdint>
#include <vector>

#include "raydb/arrow_abi.h"
#include "raydb/column_input.h"

namespace raydb::python {

// ColumnInputs pointing into the batch's buffers (or into `scratch` where a value
// needs converting: decimals, 32-bit string offsets). They stay valid while the batch
// and this object live. kInvalidInput (one line, naming the column) for NULLs (stored
// columns cannot hold them yet) and layouts raydb cannot store.
struct ImportedBatch {
  std::vector<ColumnInput> columns;
  std::vector<std::vector<int64_t>> scratch;
};
ImportedBatch import_batch(const ArrowSchema& schema, const ArrowArray& array);

}  // namespace raydb::python
