#pragma once
// A VARCHAR column built from whole arrays of strings (a query result kept as a
// table): each thread codes its own slice of rows with a local ViewCodeTable, the
// slices' distinct strings are merged and sorted once, and the codes remapped in
// parallel. The same column as appending the strings one by one through a
// ColumnBuilder (order-preserving dictionary of the distinct strings), which hashed a
// fresh std::string per row on one thread.
#include <cstdint>
#include <string>
#include <vector>

#include "storage/column.h"

namespace raydb {

// v[0..n) as a VARCHAR column named `name`; a row with nulls[i] != 0 (nulls may be
// empty: none) holds the empty string, the placeholder its NULL indicator hides.
ColumnPtr build_string_column(std::string name, const std::string* v, const std::vector<uint8_t>& nulls, uint64_t n);

}  // namespace raydb
