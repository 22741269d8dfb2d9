#pragma once
// A column stored as integers (INTEGER, BIGINT, DATE, TIMESTAMP, BOOLEAN, DECIMAL(p <=
// 18), indicator columns) read as int64 words in one pass over its buffer, in
// parallel when long: the binder's host joins and key sets read millions of keys
// (TPC-H Q13's 3 M customers at SF 20), where Column::get_int per row costs a check
// and a width switch each.
#include <cstdint>
#include <vector>

#include "common/default_init_allocator.h"
#include "storage/column.h"

namespace raydb::sql {

void read_column_words(const Column& col, uint64_t n, std::vector<int64_t>& out);
// The same into a vector first written by the parallel pass (no zeroing on one thread
// first: for millions of words that cost as much as the pass).
void read_column_words(const Column& col, uint64_t n, FillVector<int64_t>& out);

// Calls f with the column's stored words in place, as `const int32_t*` or `const
// int64_t*` by its physical width: loops templated on the width read the column where
// it lies, with no widened copy to allocate and fault in (tens of MB at SF 20).
template <typename F>
decltype(auto) with_column_words(const Column& col, F&& f) {
  if (col.type().physical_width() == 4) return f(col.data<int32_t>());
  return f(col.data<int64_t>());
}

}  // namespace raydb::sql
