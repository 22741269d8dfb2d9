#pragma once
// Checks an exported Arrow record batch (host buffers) against a QueryResult: every cell
// read back by the layout the Arrow specification gives its format, compared with
// QueryResult::get. Shared by the CPU and CUDA device export tests.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "raydb/arrow_abi.h"
#include "raydb/raydb.h"

namespace raydb::test {

inline bool arrow_bit(const void* bitmap, int64_t i) { return (static_cast<const uint8_t*>(bitmap)[i / 8] >> (i % 8)) & 1; }

// Cell `row` of a column as the Arrow layout of `format` gives it, checked against `v`.
inline void expect_cell(const std::string& format, const ArrowArray& a, int64_t row, const Value& v, const std::string& where) {
  SCOPED_TRACE(where + " format " + format);
  const bool valid = format != "n" && (!a.buffers[0] || arrow_bit(a.buffers[0], row));
  ASSERT_EQ(!valid, v.is_null());
  if (!valid) return;
  const void* values = a.buffers[1];
  if (format == "b") {
    EXPECT_EQ(__int128(arrow_bit(values, row)), v.as_hugeint());
  } else if (format == "i" || format == "tdD") {
    EXPECT_EQ(__int128(static_cast<const int32_t*>(values)[row]), v.as_hugeint());
  } else if (format == "l" || format == "tsu:") {
    EXPECT_EQ(__int128(static_cast<const int64_t*>(values)[row]), v.as_hugeint());
  } else if (format.rfind("d:", 0) == 0) {
    __int128 x;
    std::memcpy(&x, static_cast<const char*>(values) + 16 * row, 16);
    EXPECT_EQ(x, v.as_hugeint());
  } else if (format == "g") {
    const double d = static_cast<const double*>(values)[row], e = v.as_double();
    EXPECT_EQ(std::memcmp(&d, &e, 8), 0) << d << " vs " << e;  // bit for bit (-0.0 too)
  } else if (format == "u") {
    const auto* off = static_cast<const int32_t*>(values);
    EXPECT_EQ(std::string(static_cast<const char*>(a.buffers[2]) + off[row], size_t(off[row + 1] - off[row])),
              v.as_string());
  } else {
    ADD_FAILURE() << "unexpected format";
  }
}

// The whole exported batch against the result, cell by cell.
inline void expect_batch(const QueryResult& r, const ArrowSchema& schema, const ArrowArray& array) {
  ASSERT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, int64_t(r.column_count()));
  ASSERT_EQ(array.n_children, int64_t(r.column_count()));
  ASSERT_EQ(array.length, int64_t(r.row_count()));
  for (size_t c = 0; c < r.column_count(); c++) {
    EXPECT_EQ(std::string(schema.children[c]->name), r.column_name(c));
    const ArrowArray& col = *array.children[c];
    ASSERT_EQ(col.length, int64_t(r.row_count()));
    int64_t nulls = 0;
    for (size_t i = 0; i < r.row_count(); i++) {
      expect_cell(schema.children[c]->format, col, int64_t(i), r.get(i, c), r.column_name(c) + " row " + std::to_string(i));
      nulls += r.get(i, c).is_null();
    }
    EXPECT_EQ(col.null_count, nulls) << r.column_name(c);
  }
}

}  // namespace raydb::test
