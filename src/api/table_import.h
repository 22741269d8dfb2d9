#pragma once
// Tables from outside the engine (raydb/column_input.h) built as stored columns: the
// Python package's Arrow import and embedders go through here.
#include <string>
#include <vector>

#include "raydb/column_input.h"
#include "storage/table.h"

namespace raydb::api {

// Copies `columns` into a heap table named `name`. kInvalidInput (one line, naming
// the column) for a bad table name, no columns, a type that cannot be stored, a
// DECIMAL wider than 18 digits or a value out of its range, a missing value pointer,
// or columns of different lengths.
TablePtr build_table(const std::string& name, const std::vector<ColumnInput>& columns);

}  // namespace raydb::api
