#pragma once
// Small pieces that turn generated arrays into storage Columns and Tables without
// copying the data: values are written straight into the Buffer the Column keeps.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "storage/buffer.h"
#include "storage/column.h"
#include "storage/loaders/ssb_schema.h"

namespace raydb::ssb {

// An uninitialized int32 array of `rows` values, to be filled and then wrapped.
struct Int32Array {
  explicit Int32Array(uint64_t rows) : buffer(Buffer::allocate(rows * sizeof(int32_t))), size(rows) {}
  int32_t* data() { return static_cast<int32_t*>(buffer->mutable_data()); }
  int32_t& operator[](uint64_t i) { return data()[i]; }
  std::shared_ptr<Buffer> buffer;
  uint64_t size;
};

// INTEGER column over `values` (computes statistics).
ColumnPtr integer_column(std::string name, Int32Array values);

// VARCHAR column from per-row indices into `domain` (distinct strings, any order).
// The dictionary holds only the values that occur, in sorted order; the indices
// are rewritten in place into dictionary codes.
ColumnPtr varchar_from_domain(std::string name, const std::vector<std::string>& domain, Int32Array indices,
                              int threads);

// VARCHAR column from one string per row (duplicates allowed).
ColumnPtr varchar_from_strings(std::string name, const std::vector<std::string>& values);

// Orders `columns` as the SSB schema of `table` lists them, checking that every
// schema column is present exactly once with its schema type.
TablePtr assemble_table(const std::string& table, std::vector<ColumnPtr> columns);

}  // namespace raydb::ssb
