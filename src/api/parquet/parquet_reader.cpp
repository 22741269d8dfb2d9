#include "api/parquet/parquet_reader.h"

#include "common/error.h"
#include "storage/loaders/csv_loader.h"

#if RAYDB_HAVE_PARQUET
#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/exception.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#endif

namespace raydb::api {

#if !RAYDB_HAVE_PARQUET

bool parquet_available() { return false; }

TablePtr read_parquet_table(const std::string&, const std::vector<std::string>&, std::vector<std::string>*) {
  fail(ErrorKind::kInvalidInput, "Parquet support was not built (configure with pyarrow or Arrow/Parquet C++ found; "
       "see README)");
}

#else

bool parquet_available() { return true; }

namespace {

// How an Arrow column is stored, and why when as text.
struct Mapping {
  Type type;
  const char* as_text = nullptr;  // "UTC": an instant whose time zone is dropped
};

Mapping map_type(const std::string& column, const arrow::DataType& t) {
  switch (t.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::UINT8:
    case arrow::Type::UINT16: return {Type::integer()};
    case arrow::Type::INT64:
    case arrow::Type::UINT32:
    case arrow::Type::UINT64: return {Type::bigint()};
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE: return {Type::float64()};
    case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL32: {
      const auto& d = static_cast<const arrow::DecimalType&>(t);
      if (d.precision() > 18 || d.scale() < 0)
        fail(ErrorKind::kLoad, "column {}: {} cannot be stored (raydb keeps DECIMAL(p,s) with p <= 18, s >= 0)",
             column, t.ToString());
      return {Type::decimal(d.precision(), d.scale())};
    }
    case arrow::Type::DATE32:
    case arrow::Type::DATE64: return {Type::date()};
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW:
    case arrow::Type::NA: return {Type::varchar()};
    case arrow::Type::DICTIONARY:
      return map_type(column, *static_cast<const arrow::DictionaryType&>(t).value_type());
    case arrow::Type::TIMESTAMP:
      return {Type::timestamp(), static_cast<const arrow::TimestampType&>(t).timezone().empty() ? nullptr : "UTC"};
    case arrow::Type::BOOL: return {Type::boolean()};
    default:
      fail(ErrorKind::kLoad, "column {}: Parquet type {} cannot be loaded (integers, floats, decimals, dates, "
           "timestamps, booleans and strings can)", column, t.ToString());
  }
}

void check(const arrow::Status& s, const std::string& file) {
  if (!s.ok()) fail(ErrorKind::kLoad, "{}: {}", file, s.message());
}

// A Parquet timestamp in raydb's unit (microseconds), exactly: seconds and
// milliseconds scaled up (overflow: an error), nanoseconds only when whole microseconds.
int64_t timestamp_micros(int64_t v, const arrow::TimestampType& t, const std::string& column) {
  int64_t out = 0;
  bool ok = true;
  switch (t.unit()) {
    case arrow::TimeUnit::SECOND: ok = !__builtin_mul_overflow(v, int64_t(1000000), &out); break;
    case arrow::TimeUnit::MILLI: ok = !__builtin_mul_overflow(v, int64_t(1000), &out); break;
    case arrow::TimeUnit::MICRO: out = v; break;
    case arrow::TimeUnit::NANO:
      if (v % 1000 != 0)
        fail(ErrorKind::kLoad, "column {}: timestamp {} ns has a fraction below a microsecond, which TIMESTAMP "
             "(microseconds) cannot hold", column, v);
      out = v / 1000;
      break;
  }
  if (!ok) fail(ErrorKind::kLoad, "column {}: timestamp {} ({}) is out of range for TIMESTAMP", column, v, t.ToString());
  return out;
}

// One value of a non-null slot, appended to `b`.
void append_value(ColumnBuilder& b, const arrow::Array& a, int64_t i, const std::string& column) {
  switch (a.type_id()) {
    case arrow::Type::INT8: return b.append_int(static_cast<const arrow::Int8Array&>(a).Value(i));
    case arrow::Type::INT16: return b.append_int(static_cast<const arrow::Int16Array&>(a).Value(i));
    case arrow::Type::INT32: return b.append_int(static_cast<const arrow::Int32Array&>(a).Value(i));
    case arrow::Type::INT64: return b.append_int(static_cast<const arrow::Int64Array&>(a).Value(i));
    case arrow::Type::UINT8: return b.append_int(static_cast<const arrow::UInt8Array&>(a).Value(i));
    case arrow::Type::UINT16: return b.append_int(static_cast<const arrow::UInt16Array&>(a).Value(i));
    case arrow::Type::UINT32: return b.append_int(static_cast<const arrow::UInt32Array&>(a).Value(i));
    case arrow::Type::UINT64: {
      const uint64_t v = static_cast<const arrow::UInt64Array&>(a).Value(i);
      if (v > uint64_t(INT64_MAX)) fail(ErrorKind::kLoad, "column {}: value {} does not fit BIGINT", column, v);
      return b.append_int(int64_t(v));
    }
    case arrow::Type::FLOAT: return b.append_double(static_cast<const arrow::FloatArray&>(a).Value(i));
    case arrow::Type::DOUBLE: return b.append_double(static_cast<const arrow::DoubleArray&>(a).Value(i));
    case arrow::Type::DECIMAL128: {
      // p <= 18: the unscaled value fits int64 (checked by the type mapping).
      const arrow::Decimal128 d(static_cast<const arrow::Decimal128Array&>(a).GetValue(i));
      return b.append_int(int64_t(d.low_bits()));
    }
    case arrow::Type::DECIMAL64: {
      const arrow::Decimal64 d(static_cast<const arrow::Decimal64Array&>(a).GetValue(i));
      return b.append_int(d.value());
    }
    case arrow::Type::DECIMAL32: {
      const arrow::Decimal32 d(static_cast<const arrow::Decimal32Array&>(a).GetValue(i));
      return b.append_int(d.value());
    }
    case arrow::Type::DATE32: return b.append_int(static_cast<const arrow::Date32Array&>(a).Value(i));
    case arrow::Type::DATE64: {
      int64_t ms = static_cast<const arrow::Date64Array&>(a).Value(i);
      return b.append_int(ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000));
    }
    case arrow::Type::STRING: return b.append_string(static_cast<const arrow::StringArray&>(a).GetView(i));
    case arrow::Type::LARGE_STRING: return b.append_string(static_cast<const arrow::LargeStringArray&>(a).GetView(i));
    case arrow::Type::STRING_VIEW: return b.append_string(static_cast<const arrow::StringViewArray&>(a).GetView(i));
    case arrow::Type::BOOL: return b.append_int(static_cast<const arrow::BooleanArray&>(a).Value(i) ? 1 : 0);
    case arrow::Type::TIMESTAMP:
      return b.append_int(timestamp_micros(static_cast<const arrow::TimestampArray&>(a).Value(i),
                                           static_cast<const arrow::TimestampType&>(*a.type()), column));
    case arrow::Type::DICTIONARY: {
      const auto& d = static_cast<const arrow::DictionaryArray&>(a);
      return append_value(b, *d.dictionary(), d.GetValueIndex(i), column);
    }
    default: fail(ErrorKind::kLoad, "column {}: type {} cannot be loaded", column, a.type()->ToString());
  }
}

std::shared_ptr<arrow::Table> read_file(const std::string& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) fail(ErrorKind::kIO, "cannot open {}: {}", file, std::strerror(ENOENT));
  auto in = arrow::io::ReadableFile::Open(file);
  if (!in.ok()) fail(ErrorKind::kIO, "cannot open {}: {}", file, in.status().message());
  try {
    auto reader = parquet::arrow::OpenFile(*in, arrow::default_memory_pool());
    if (!reader.ok()) fail(ErrorKind::kLoad, "{}: not a Parquet file ({})", file, reader.status().message());
    std::shared_ptr<arrow::Table> table;
    check((*reader)->ReadTable(&table), file);
    return table;
  } catch (const parquet::ParquetException& e) {  // the Parquet layer throws on corrupt input
    fail(ErrorKind::kLoad, "{}: not a Parquet file ({})", file, e.what());
  }
}

}  // namespace

TablePtr read_parquet_table(const std::string& name, const std::vector<std::string>& files,
                            std::vector<std::string>* notes) {
  if (!is_valid_table_name(name))
    fail(ErrorKind::kInvalidInput, "invalid table name '{}' (letters, digits and _, not starting with a digit)", name);
  if (files.empty()) fail(ErrorKind::kInvalidInput, "no input files for table {}", name);
  std::vector<std::shared_ptr<arrow::Table>> tables;
  for (const std::string& f : files) tables.push_back(read_file(f));
  const arrow::Schema& schema = *tables[0]->schema();
  if (schema.num_fields() == 0) fail(ErrorKind::kLoad, "{}: no columns", files[0]);
  std::vector<Mapping> mappings;
  for (const auto& field : schema.fields()) mappings.push_back(map_type(field->name(), *field->type()));
  for (size_t t = 1; t < tables.size(); t++) {
    const arrow::Schema& other = *tables[t]->schema();
    bool same = other.num_fields() == schema.num_fields();
    for (int c = 0; same && c < schema.num_fields(); c++)
      same = other.field(c)->name() == schema.field(c)->name() &&
             map_type(other.field(c)->name(), *other.field(c)->type()).type == mappings[size_t(c)].type;
    if (!same) fail(ErrorKind::kLoad, "{}: its columns differ from those of {}", files[t], files[0]);
  }
  std::vector<ColumnPtr> columns;
  for (int c = 0; c < schema.num_fields(); c++) {
    const std::string& column = schema.field(c)->name();
    const Mapping& m = mappings[size_t(c)];
    if (m.as_text && notes)
      notes->push_back(fmt::format("column {}: a timestamp with a time zone; loaded as TIMESTAMP in {} (raydb has "
                                   "no time zones)", column, m.as_text));
    ColumnBuilder b(column, m.type, true);
    int64_t rows = 0;
    for (const auto& t : tables) rows += t->num_rows();
    b.reserve(uint64_t(rows));
    for (const auto& t : tables)
      for (const auto& chunk : t->column(c)->chunks())
        for (int64_t i = 0; i < chunk->length(); i++) {
          if (chunk->IsNull(i))
            b.append_null(name);
          else
            append_value(b, *chunk, i, column);
        }
    columns.push_back(b.finish());
  }
  return std::make_shared<const Table>(name, std::move(columns));
}

#endif

}  // namespace raydb::api
