#include "arrow_import.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "common/error.h"

namespace raydb::python {

namespace {

bool bit(const void* bitmap, int64_t i) { return (static_cast<const uint8_t*>(bitmap)[i / 8] >> (i % 8)) & 1; }

// decimal128 -> scaled int64: p <= 18 digits always fit; the high word must be the
// low word's sign extension.
void import_decimal(const std::string& format, const ArrowArray& a, int64_t offset, int64_t rows, ColumnInput& col,
                    std::vector<int64_t>& out) {
  int p = 0, s = 0, width = 128;
  const int n = std::sscanf(format.c_str(), "d:%d,%d,%d", &p, &s, &width);
  if (n < 2 || width != 128 || p < 1 || p > 18 || s < 0 || s > p)
    fail(ErrorKind::kInvalidInput, "column {}: Arrow decimal '{}' cannot be stored (DECIMAL(p,s) with p <= 18, 0 <= s <= p)",
         col.name, format);
  col.type = Type::decimal(p, s);
  out.resize(size_t(rows));
  const auto* words = static_cast<const uint64_t*>(a.buffers[1]) + 2 * offset;
  for (int64_t i = 0; i < rows; i++) {
    const int64_t lo = int64_t(words[2 * i]);
    if (int64_t(words[2 * i + 1]) != (lo < 0 ? -1 : 0) && (!a.buffers[0] || bit(a.buffers[0], offset + i)))
      fail(ErrorKind::kInvalidInput, "column {}: value at row {} does not fit DECIMAL({},{})", col.name, i, p, s);
    out[size_t(i)] = lo;
  }
  col.values = out.data();
}

void import_strings(bool large, const ArrowArray& a, int64_t offset, int64_t rows, ColumnInput& col,
                    std::vector<int64_t>& out) {
  col.type = Type::varchar();
  col.chars = static_cast<const char*>(a.buffers[2]);
  if (large) {
    col.offsets = static_cast<const int64_t*>(a.buffers[1]) + offset;
    return;
  }
  const int32_t* o = static_cast<const int32_t*>(a.buffers[1]) + offset;
  out.assign(o, o + rows + 1);
  col.offsets = out.data();
}

// Arrow booleans are bits; the engine stores BOOLEAN as int32 0/1 (packed two to a scratch word).
void import_booleans(const ArrowArray& a, int64_t offset, int64_t rows, ColumnInput& col, std::vector<int64_t>& out) {
  col.type = Type::boolean();
  out.assign(size_t(rows / 2 + 1), 0);
  auto* v = reinterpret_cast<int32_t*>(out.data());
  for (int64_t i = 0; i < rows; i++) v[i] = bit(a.buffers[1], offset + i) ? 1 : 0;
  col.values = v;
}

ColumnInput import_column(const ArrowSchema& s, const ArrowArray& a, int64_t offset, int64_t rows,
                          std::vector<int64_t>& scratch) {
  ColumnInput col;
  col.name = s.name ? s.name : "";
  col.rows = uint64_t(rows);
  const std::string format = s.format ? s.format : "";
  if (a.null_count != 0 && a.n_buffers >= 1 && a.buffers && a.buffers[0]) {  // Arrow's validity bitmap
    col.validity = static_cast<const uint8_t*>(a.buffers[0]);
    col.validity_offset = uint64_t(offset);
  }
  const bool strings = format == "u" || format == "U";
  // Timestamps arrive in microseconds (arrow_input.py casts exactly); "tsu:<zone>" holds UTC instants.
  const bool micros = format.rfind("tsu:", 0) == 0;
  const bool fixed = format == "i" || format == "tdD" || format == "l" || format == "g" || format == "b" || micros ||
                     format.rfind("d:", 0) == 0;
  if ((!strings && !fixed) || !a.buffers || a.n_buffers < (strings ? 3 : 2))
    fail(ErrorKind::kInvalidInput, "column {}: Arrow type '{}' cannot be stored (INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, "
         "TIMESTAMP, BOOLEAN, VARCHAR)", col.name, format);
  if (format == "b") {
    import_booleans(a, offset, rows, col, scratch);
  } else if (micros) {
    col.type = Type::timestamp();
    col.values = static_cast<const int64_t*>(a.buffers[1]) + offset;
  } else if (format == "i" || format == "tdD") {
    col.type = format == "i" ? Type::integer() : Type::date();
    col.values = static_cast<const int32_t*>(a.buffers[1]) + offset;
  } else if (format == "l") {
    col.type = Type::bigint();
    col.values = static_cast<const int64_t*>(a.buffers[1]) + offset;
  } else if (format == "g") {
    col.type = Type::float64();
    col.values = static_cast<const double*>(a.buffers[1]) + offset;
  } else if (format.rfind("d:", 0) == 0) {
    import_decimal(format, a, offset, rows, col, scratch);
  } else {
    import_strings(format == "U", a, offset, rows, col, scratch);
  }
  return col;
}

}  // namespace

ImportedBatch import_batch(const ArrowSchema& schema, const ArrowArray& array) {
  if (!schema.format || std::strcmp(schema.format, "+s") != 0 || schema.n_children != array.n_children)
    fail(ErrorKind::kInvalidInput, "expected an Arrow record batch (a struct array)");
  ImportedBatch out;
  out.scratch.resize(size_t(array.n_children));
  for (int64_t c = 0; c < array.n_children; c++) {
    const ArrowSchema& s = *schema.children[c];
    const ArrowArray& a = *array.children[c];
    if (a.length < array.offset + array.length)
      fail(ErrorKind::kInvalidInput, "column {}: shorter than its record batch", s.name ? s.name : "");
    // A struct's offset applies to its children on top of their own.
    out.columns.push_back(import_column(s, a, a.offset + array.offset, array.length, out.scratch[size_t(c)]));
  }
  return out;
}

}  // namespace raydb::python
