#pragma once
// Columns made from whole vectors a caller hands over (a query result's column kept as
// a table): the vector's storage becomes the column's buffer, never copied. Where the
// stored width is narrower (INTEGER, DATE, BOOLEAN from int64) the values are narrowed
// in place, in parallel, and their statistics found in the same pass; otherwise
// (BIGINT, DECIMAL, TIMESTAMP, DOUBLE) one parallel min/max pass finds them.
#include <cstdint>
#include <string>
#include <vector>

#include "storage/column.h"

namespace raydb {

// The first `n` values of `values` (n <= values.size(); moved from) as a column of
// `type`, an integer-physical type other than VARCHAR; values of a 4-byte type must fit
// in int32 (the caller's type guarantees it).
ColumnPtr adopt_int_column(std::string name, const Type& type, std::vector<int64_t>&& values, uint64_t n);
// The first `n` values of `values` (moved from) as a DOUBLE column.
ColumnPtr adopt_double_column(std::string name, std::vector<double>&& values, uint64_t n);
// An INTEGER column of int32(flags[i]) for i < n (flags[i] 0 or 1: NULL indicators),
// filled in parallel.
ColumnPtr flag_column(std::string name, const std::vector<uint8_t>& flags, uint64_t n);

}  // namespace raydb
