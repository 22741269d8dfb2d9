#pragma once
// A column stored as integers (INTEGER, BIGINT, DATE, TIMESTAMP, BOOLEAN, DECIMAL(p <=
// 18), indicator columns) read as int64 words in one pass over its buffer, in
// parallel when long: the binder's host joins and key sets read millions of keys
// (TPC-H Q13's 3 M customers at SF 20), where Column::get_int per row costs a check
// and a width switch each.
#include <cstdint>
#include <vector>

#include "storage/column.h"

namespace raydb::sql {

void read_column_words(const Column& col, uint64_t n, std::vector<int64_t>& out);

}  // namespace raydb::sql
