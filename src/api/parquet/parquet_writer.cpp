#include "api/parquet/parquet_writer.h"

#include "common/error.h"
#include "storage/persist/file_io.h"

#if RAYDB_HAVE_PARQUET
#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#endif

namespace raydb::api {

#if !RAYDB_HAVE_PARQUET

uint64_t write_parquet(const QueryResult&, const std::string&) {
  fail(ErrorKind::kInvalidInput, "Parquet support was not built (configure with pyarrow or Arrow/Parquet C++ found; "
       "see README)");
}

#else

namespace {

void check(const arrow::Status& s, const std::string& what) {
  if (!s.ok()) fail(ErrorKind::kIO, "{}: {}", what, s.message());
}

std::shared_ptr<arrow::DataType> arrow_type(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger: return arrow::int32();
    case TypeId::kBigint: return arrow::int64();
    case TypeId::kHugeint: return arrow::decimal128(38, 0);
    case TypeId::kDouble: return arrow::float64();
    case TypeId::kDecimal: return arrow::decimal128(t.precision, t.scale);
    case TypeId::kDate: return arrow::date32();
    case TypeId::kBoolean: return arrow::boolean();
    case TypeId::kTimestamp: return arrow::timestamp(arrow::TimeUnit::MICRO);
    case TypeId::kVarchar:
    case TypeId::kNull: return arrow::utf8();
  }
  return arrow::utf8();
}

arrow::Decimal128 decimal_of(__int128 v) {
  const auto u = static_cast<unsigned __int128>(v);
  return arrow::Decimal128(int64_t(uint64_t(u >> 64)), uint64_t(u));
}

// One result column as an Arrow array: values from the column's own vector where it
// has one, otherwise value by value.
std::shared_ptr<arrow::Array> column_array(const QueryResult& r, size_t c) {
  const QueryResult::ColumnData& d = r.columns()[c];
  const size_t n = r.row_count();
  std::unique_ptr<arrow::ArrayBuilder> builder;
  check(arrow::MakeBuilder(arrow_type(d.type), arrow::default_memory_pool()).Value(&builder), "parquet");
  check(builder->Reserve(int64_t(n)), "parquet");
  for (size_t i = 0; i < n; i++) {
    const Value v = r.get(i, c);
    if (v.is_null() || d.type.id == TypeId::kNull) {
      check(builder->AppendNull(), "parquet");
      continue;
    }
    arrow::Status s;
    switch (d.type.id) {
      case TypeId::kInteger: s = static_cast<arrow::Int32Builder&>(*builder).Append(int32_t(v.as_int())); break;
      case TypeId::kBigint: s = static_cast<arrow::Int64Builder&>(*builder).Append(v.as_int()); break;
      case TypeId::kDate: s = static_cast<arrow::Date32Builder&>(*builder).Append(int32_t(v.as_int())); break;
      case TypeId::kBoolean: s = static_cast<arrow::BooleanBuilder&>(*builder).Append(v.as_int() != 0); break;
      case TypeId::kTimestamp: s = static_cast<arrow::TimestampBuilder&>(*builder).Append(v.as_int()); break;
      case TypeId::kDouble: s = static_cast<arrow::DoubleBuilder&>(*builder).Append(v.as_double()); break;
      case TypeId::kHugeint:
        s = static_cast<arrow::Decimal128Builder&>(*builder).Append(decimal_of(v.as_hugeint()));
        break;
      case TypeId::kDecimal:
        s = static_cast<arrow::Decimal128Builder&>(*builder).Append(
            decimal_of(v.as_hugeint()));
        break;
      default: s = static_cast<arrow::StringBuilder&>(*builder).Append(v.to_string()); break;
    }
    check(s, "parquet");
  }
  std::shared_ptr<arrow::Array> out;
  check(builder->Finish(&out), "parquet");
  return out;
}

}  // namespace

uint64_t write_parquet(const QueryResult& r, const std::string& path) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (size_t c = 0; c < r.column_count(); c++) {
    const std::string& name = r.column_name(c);
    fields.push_back(arrow::field(name.empty() ? fmt::format("column{}", c) : name, arrow_type(r.column_type(c))));
    arrays.push_back(column_array(r, c));
  }
  auto table = arrow::Table::Make(arrow::schema(fields), arrays, int64_t(r.row_count()));
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  try {
    auto out = arrow::io::FileOutputStream::Open(tmp);
    if (!out.ok()) fail(ErrorKind::kIO, "cannot write {}: {}", path, out.status().message());
    check(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), *out, 1 << 20), "cannot write " + path);
    check((*out)->Close(), "cannot write " + path);
  } catch (const parquet::ParquetException& e) {
    std::remove(tmp.c_str());
    fail(ErrorKind::kIO, "cannot write {}: {}", path, e.what());
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  // The data on disk before the rename, the rename on disk before success is reported.
  if (int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced) {
      std::remove(tmp.c_str());
      fail(ErrorKind::kIO, "cannot write {}: fsync failed", path);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    fail(ErrorKind::kIO, "cannot write {}: {}", path, ec.message());
  }
  const std::string parent = std::filesystem::path(path).parent_path().string();
  persist::fsync_directory(parent.empty() ? "." : parent);
  return r.row_count();
}

#endif

}  // namespace raydb::api
