#include "api/table_import.h"

#include <cstring>

#include "common/error.h"
#include "storage/loaders/csv_loader.h"

namespace raydb::api {

namespace {

bool is_valid(const ColumnInput& in, uint64_t i) {
  const uint64_t b = in.validity_offset + i;
  return !in.validity || ((in.validity[b >> 3] >> (b & 7)) & 1);
}

// The input's validity as a bitmap starting at row 0 (nullptr: no NULL).
std::shared_ptr<Buffer> validity_of(const ColumnInput& in) {
  if (!in.validity || in.rows == 0) return nullptr;
  auto bits = Buffer::allocate(validity_bytes(in.rows));
  auto* out = static_cast<uint8_t*>(bits->mutable_data());
  std::memset(out, 0, validity_bytes(in.rows));
  for (uint64_t i = 0; i < in.rows; i++)
    if (is_valid(in, i)) out[i >> 3] = uint8_t(out[i >> 3] | (1u << (i & 7)));
  return bits;
}

// Fixed-width values are copied as they are: the input is already in stored form.
// NULL slots may hold anything (make_nullable_column overwrites them).
ColumnPtr fixed_column(const ColumnInput& in) {
  const size_t width = size_t(in.type.physical_width());
  auto buf = Buffer::allocate(in.rows * width);
  if (in.rows > 0) std::memcpy(buf->mutable_data(), in.values, in.rows * width);
  // BOOLEAN comes as int32 0/1 and TIMESTAMP as int64 microseconds (column_input.h lists
  // the other types); a BOOLEAN holding anything else would compare wrongly.
  if (in.type.id == TypeId::kBoolean) {
    const auto* v = static_cast<const int32_t*>(buf->data());
    for (uint64_t i = 0; i < in.rows; i++)
      if (v[i] != 0 && v[i] != 1 && is_valid(in, i))
        fail(ErrorKind::kInvalidInput, "column {}: value {} at row {} is not a BOOLEAN (0 or 1)", in.name, v[i], i);
  }
  if (in.type.id == TypeId::kDecimal) {
    // A DECIMAL(p,s) column promises |value| < 10^p; the planner's exact range
    // arithmetic relies on it.
    const int64_t limit = pow10_i64(in.type.precision);
    const auto* v = static_cast<const int64_t*>(buf->data());
    for (uint64_t i = 0; i < in.rows; i++)
      if ((v[i] >= limit || v[i] <= -limit) && is_valid(in, i))
        fail(ErrorKind::kInvalidInput, "column {}: value {} at row {} does not fit {}", in.name,
             format_decimal(v[i], in.type.scale), i, in.type.to_string());
  }
  return make_nullable_column(in.name, in.type, std::move(buf), in.rows, nullptr, validity_of(in), true);
}

// Strings get the order-preserving dictionary every VARCHAR column has.
ColumnPtr varchar_column(const ColumnInput& in) {
  if (!in.offsets || (in.rows > 0 && in.offsets[in.rows] > 0 && !in.chars))
    fail(ErrorKind::kInvalidInput, "column {}: VARCHAR values missing", in.name);
  ColumnBuilder b(in.name, in.type, true);
  b.reserve(in.rows);
  for (uint64_t i = 0; i < in.rows; i++) {
    if (!is_valid(in, i)) {
      b.append_null();
      continue;
    }
    const int64_t begin = in.offsets[i], end = in.offsets[i + 1];
    if (begin < 0 || end < begin) fail(ErrorKind::kInvalidInput, "column {}: bad string offsets at row {}", in.name, i);
    b.append_string(std::string_view(in.chars + begin, size_t(end - begin)));
  }
  return b.finish();
}

ColumnPtr import_column(const ColumnInput& in) {
  if (in.name.empty()) fail(ErrorKind::kInvalidInput, "a column without a name");
  if (!in.type.storable())
    fail(ErrorKind::kInvalidInput,
         "column {}: type {} cannot be stored (INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, BOOLEAN, VARCHAR)",
         in.name, in.type.to_string());
  if (in.type.id == TypeId::kDecimal && (in.type.precision < 1 || in.type.precision > 18 || in.type.scale > in.type.precision))
    fail(ErrorKind::kInvalidInput, "column {}: {} cannot be stored (DECIMAL(p,s) with 1 <= p <= 18, s <= p)", in.name,
         in.type.to_string());
  if (in.type.id == TypeId::kVarchar) return varchar_column(in);
  if (!in.values && in.rows > 0) fail(ErrorKind::kInvalidInput, "column {}: values missing", in.name);
  return fixed_column(in);
}

}  // namespace

TablePtr build_table(const std::string& name, const std::vector<ColumnInput>& columns) {
  if (!is_valid_table_name(name))
    fail(ErrorKind::kInvalidInput, "invalid table name '{}' (letters, digits and _, not starting with a digit)", name);
  if (columns.empty()) fail(ErrorKind::kInvalidInput, "table {} needs at least one column", name);
  for (const ColumnInput& c : columns)
    if (c.rows != columns[0].rows)
      fail(ErrorKind::kInvalidInput, "table {}: column {} has {} rows, column {} has {}", name, c.name, c.rows,
           columns[0].name, columns[0].rows);
  std::vector<ColumnPtr> cols;
  cols.reserve(columns.size());
  for (const ColumnInput& c : columns) cols.push_back(import_column(c));
  return std::make_shared<const Table>(name, std::move(cols));
}

}  // namespace raydb::api
