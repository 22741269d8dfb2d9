// A query result as an Arrow record batch (raydb/arrow_export.h): one struct array,
// a child per column.
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "raydb/arrow_export.h"

namespace raydb {

namespace {

struct SchemaData {
  std::string format, name;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_ptrs;
};

struct ArrayData {
  std::shared_ptr<const QueryResult> keep;  // shared buffers point into it
  std::vector<uint8_t> validity;
  std::vector<uint8_t> values;   // values converted to Arrow's layout
  std::vector<uint8_t> offsets;  // int32 or int64 string offsets
  std::string chars;
  const void* buffers[3] = {nullptr, nullptr, nullptr};
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_ptrs;
};

// Release callbacks as the specification asks: children first (unless a consumer
// moved them out, which clears their release), then mark this struct released.
void release_schema(ArrowSchema* s) {
  if (!s->release) return;
  for (int64_t i = 0; i < s->n_children; i++)
    if (s->children[i]->release) s->children[i]->release(s->children[i]);
  delete static_cast<SchemaData*>(s->private_data);
  s->release = nullptr;
}

void release_array(ArrowArray* a) {
  if (!a->release) return;
  for (int64_t i = 0; i < a->n_children; i++)
    if (a->children[i]->release) a->children[i]->release(a->children[i]);
  delete static_cast<ArrayData*>(a->private_data);
  a->release = nullptr;
}

void fill_schema(ArrowSchema* s, SchemaData* d, int64_t flags) {
  *s = ArrowSchema{};
  s->format = d->format.c_str();
  s->name = d->name.c_str();
  s->flags = flags;
  s->n_children = int64_t(d->children.size());
  s->children = d->child_ptrs.empty() ? nullptr : d->child_ptrs.data();
  s->release = release_schema;
  s->private_data = d;
}

std::string arrow_format(const QueryResult::ColumnData& c) {
  switch (c.type.id) {
    case TypeId::kBoolean: return "b";
    case TypeId::kInteger: return "i";
    case TypeId::kBigint: return "l";
    case TypeId::kHugeint: return "d:38,0";
    case TypeId::kDouble: return "g";
    case TypeId::kDecimal:  // a wide (int128) payload may exceed the declared precision's 18 digits
      return "d:" + std::to_string(c.huge.empty() ? int(c.type.precision) : 38) + "," + std::to_string(int(c.type.scale));
    case TypeId::kDate: return "tdD";
    case TypeId::kTimestamp: return "tsu:";  // microseconds, no time zone
    case TypeId::kVarchar: break;
    case TypeId::kNull: return "n";
  }
  size_t bytes = 0;
  for (const std::string& s : c.strings) bytes += s.size();
  return bytes > size_t(INT32_MAX) ? "U" : "u";
}

// Copies `rows` values of `in` (missing ones as zero) converted to T.
template <typename T, typename S>
void convert(const std::vector<S>& in, size_t rows, std::vector<uint8_t>& out) {
  out.assign(rows * sizeof(T), 0);
  T* p = reinterpret_cast<T*>(out.data());
  for (size_t i = 0; i < rows && i < in.size(); i++) p[i] = T(in[i]);
}

// Shares `in` when it holds every row, else copies it.
template <typename T>
const void* share(const std::vector<T>& in, size_t rows, std::vector<uint8_t>& scratch) {
  if (in.size() >= rows) return in.data();
  convert<T>(in, rows, scratch);
  return scratch.data();
}

template <typename Offset>
void fill_strings(const QueryResult::ColumnData& c, size_t rows, ArrayData* d) {
  d->offsets.assign((rows + 1) * sizeof(Offset), 0);
  Offset* off = reinterpret_cast<Offset*>(d->offsets.data());
  size_t total = 0;
  for (size_t i = 0; i < rows && i < c.strings.size(); i++) total += c.strings[i].size();
  d->chars.reserve(total);
  for (size_t i = 0; i < rows; i++) {
    if (i < c.strings.size()) d->chars += c.strings[i];
    off[i + 1] = Offset(d->chars.size());
  }
  d->buffers[1] = d->offsets.data();
  d->buffers[2] = d->chars.data();
}

// The data buffers of one column; returns how many buffers its layout has.
int64_t fill_values(const QueryResult::ColumnData& c, const std::string& format, size_t rows, ArrayData* d) {
  switch (c.type.id) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: {
      d->values.assign((rows + 7) / 8, 0);
      for (size_t i = 0; i < rows && i < c.ints.size(); i++)
        if (c.ints[i]) d->values[i / 8] |= uint8_t(1u << (i % 8));
      d->buffers[1] = d->values.data();
      return 2;
    }
    case TypeId::kInteger:
    case TypeId::kDate: convert<int32_t>(c.ints, rows, d->values); d->buffers[1] = d->values.data(); return 2;
    case TypeId::kBigint:
    case TypeId::kTimestamp: d->buffers[1] = share(c.ints, rows, d->values); return 2;
    case TypeId::kDouble: d->buffers[1] = share(c.doubles, rows, d->values); return 2;
    case TypeId::kHugeint: d->buffers[1] = share(c.huge, rows, d->values); return 2;
    case TypeId::kDecimal:
      // decimal128 is a little-endian two's-complement int128: the wide payload as is.
      if (!c.huge.empty()) d->buffers[1] = share(c.huge, rows, d->values);
      else convert<__int128>(c.ints, rows, d->values), d->buffers[1] = d->values.data();
      return 2;
    case TypeId::kVarchar:
      if (format == "U") fill_strings<int64_t>(c, rows, d);
      else fill_strings<int32_t>(c, rows, d);
      return 3;
  }
  return 0;
}

void export_column_schema(const QueryResult::ColumnData& c, ArrowSchema* s) {
  auto* sd = new SchemaData;
  sd->format = arrow_format(c);
  sd->name = c.name;
  fill_schema(s, sd, ARROW_FLAG_NULLABLE);
}

void export_column(const std::shared_ptr<const QueryResult>& result, const QueryResult::ColumnData& c, ArrowArray* a) {
  const size_t rows = result->row_count();
  auto* d = new ArrayData;
  d->keep = result;
  *a = ArrowArray{};
  a->length = int64_t(rows);
  a->n_buffers = fill_values(c, arrow_format(c), rows, d);
  if (c.type.id == TypeId::kNull) {
    a->null_count = int64_t(rows);
  } else if (!c.nulls.empty()) {
    d->validity.assign((rows + 7) / 8, 0);
    int64_t nulls = 0;
    for (size_t i = 0; i < rows; i++) {
      const bool null = i < c.nulls.size() && c.nulls[i];
      nulls += null;
      if (!null) d->validity[i / 8] |= uint8_t(1u << (i % 8));
    }
    a->null_count = nulls;
    if (nulls > 0) d->buffers[0] = d->validity.data();
  }
  // An empty vector's data() may be null; Arrow wants data buffers present.
  alignas(64) static const uint8_t kEmpty[64] = {};
  for (int64_t i = 1; i < a->n_buffers; i++)
    if (!d->buffers[i]) d->buffers[i] = kEmpty;
  a->buffers = a->n_buffers ? d->buffers : nullptr;
  a->release = release_array;
  a->private_data = d;
}

}  // namespace

void export_arrow_schema(const QueryResult& result, ArrowSchema* schema) {
  const size_t n = result.column_count();
  auto* sd = new SchemaData;
  sd->format = "+s";
  sd->children.resize(n);
  for (size_t c = 0; c < n; c++) {
    export_column_schema(result.columns()[c], &sd->children[c]);
    sd->child_ptrs.push_back(&sd->children[c]);
  }
  fill_schema(schema, sd, 0);
}

void export_arrow(const std::shared_ptr<const QueryResult>& result, ArrowSchema* schema, ArrowArray* array) {
  const size_t n = result->column_count();
  auto* ad = new ArrayData;
  ad->keep = result;
  ad->children.resize(n);
  for (size_t c = 0; c < n; c++) {
    export_column(result, result->columns()[c], &ad->children[c]);
    ad->child_ptrs.push_back(&ad->children[c]);
  }
  *array = ArrowArray{};
  array->length = int64_t(result->row_count());
  array->n_buffers = 1;  // a struct's only buffer is its (absent) validity bitmap
  array->buffers = ad->buffers;
  array->n_children = int64_t(n);
  array->children = ad->child_ptrs.empty() ? nullptr : ad->child_ptrs.data();
  array->release = release_array;
  array->private_data = ad;
  export_arrow_schema(*result, schema);
}

}  // namespace raydb
