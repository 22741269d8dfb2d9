#include "storage/table_slice.h"

#include <cstring>

#include "common/error.h"

namespace raydb {

namespace {

// The validity bits of rows [begin, end) (bit set = value present) and their NULLs.
std::pair<std::shared_ptr<Buffer>, uint64_t> slice_bits(const Column& c, uint64_t begin, uint64_t end) {
  const uint64_t rows = end - begin;
  auto out = Buffer::allocate(validity_bytes(rows));
  auto* o = static_cast<uint8_t*>(out->mutable_data());
  std::memset(o, 0, validity_bytes(rows));
  uint64_t nulls = 0;
  for (uint64_t i = 0; i < rows; i++) {
    if (c.is_null(begin + i))
      nulls++;
    else
      o[i >> 3] |= uint8_t(1u << (i & 7));
  }
  return {std::move(out), nulls};
}

ColumnPtr slice_column(const Column& c, uint64_t begin, uint64_t end) {
  const uint64_t rows = end - begin;
  const size_t width = size_t(c.type().physical_width());
  auto data = Buffer::allocate(rows * width);
  if (rows > 0) {
    const auto* src = static_cast<const uint8_t*>(c.data<uint8_t>());
    std::memcpy(data->mutable_data(), src + begin * width, rows * width);
  }
  // Statistics of the slice itself: a shard's min/max must not claim the whole table's.
  const ColumnStats stats = compute_stats(c.type(), data->data(), rows);
  auto col = std::make_shared<Column>(c.name(), c.type(), std::move(data), rows, c.dictionary_ptr(), stats);
  col->set_nullable(c.nullable());
  if (c.has_nulls()) {
    auto [bits, nulls] = slice_bits(c, begin, end);
    col->set_validity(std::move(bits), nulls);
  }
  return col;
}

}  // namespace

TablePtr slice_table(const Table& table, uint64_t begin, uint64_t end) {
  if (begin > end || end > table.row_count())
    fail(ErrorKind::kInvalidInput, "rows {}..{} are not within table {} ({} rows)", begin, end, table.name(),
         table.row_count());
  std::vector<ColumnPtr> columns;
  columns.reserve(table.column_count());
  for (size_t i = 0; i < table.column_count(); i++) columns.push_back(slice_column(table.column(i), begin, end));
  auto out = std::make_shared<Table>(table.name(), std::move(columns));
  // Contiguous rows keep the source's order, so its sort key holds per slice.
  out->set_sort_key(table.sort_key());
  return out;
}

}  // namespace raydb
