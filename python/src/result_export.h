#pragma once
// A query result as an Arrow record batch through the C Data Interface: a struct array
// with one child per column. Buffers the result already holds in Arrow's layout
// (BIGINT, DOUBLE, HUGEINT and wide DECIMAL values) are shared, not copied; the
// exported array keeps the result alive until its consumer releases it.
#include <memory>

#include "arrow_abi.h"
#include "raydb/raydb.h"

namespace raydb::python {

// Fills `schema` and `array` (uninitialized on entry; the caller's consumer calls their
// release callbacks). Types: BOOLEAN b, INTEGER i, BIGINT l, DOUBLE g, DECIMAL(p,s)
// decimal128, HUGEINT decimal128(38,0), DATE date32, VARCHAR utf8 (large_utf8 past
// 2 GiB of text), NULL n; NULLs as validity bitmaps.
void export_result(const std::shared_ptr<const QueryResult>& result, ArrowSchema* schema, ArrowArray* array);

}  // namespace raydb::python
