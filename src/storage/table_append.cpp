#include "storage/table_append.h"

#include <cstring>

#include "common/error.h"

namespace raydb {

namespace {

// Remaps `n` dictionary codes through `remap` into `out`.
void remap_codes(const int32_t* codes, uint64_t n, const std::vector<uint32_t>& remap, int32_t* out) {
  const int64_t count = int64_t(n);
#pragma omp parallel for schedule(static) if (count > (1 << 16))
  for (int64_t i = 0; i < count; i++) out[i] = int32_t(remap[uint32_t(codes[i])]);
}

// The validity of a's rows followed by b's (nullptr when neither has a NULL).
std::shared_ptr<Buffer> append_validity(const Column& a, const Column& b) {
  if (!a.has_nulls() && !b.has_nulls()) return nullptr;
  const uint64_t n = a.size() + b.size();
  auto bits = Buffer::allocate(validity_bytes(n));
  auto* out = static_cast<uint8_t*>(bits->mutable_data());
  std::memset(out, 0, validity_bytes(n));
  for (uint64_t i = 0; i < a.size(); i++)
    if (!a.is_null(i)) out[i >> 3] = uint8_t(out[i >> 3] | (1u << (i & 7)));
  for (uint64_t i = 0; i < b.size(); i++) {
    const uint64_t r = a.size() + i;
    if (!b.is_null(i)) out[r >> 3] = uint8_t(out[r >> 3] | (1u << (r & 7)));
  }
  return bits;
}

// The appended column: a's name, type and declared nullability; NULL slots hold the
// new smallest value, so the statistics are those of the non-NULL values.
ColumnPtr finish_append(const Column& a, const Column& b, std::shared_ptr<Buffer> buf,
                        std::shared_ptr<const Dictionary> dict) {
  return make_nullable_column(a.name(), a.type(), std::move(buf), a.size() + b.size(), std::move(dict),
                              append_validity(a, b), a.nullable());
}

ColumnPtr append_varchar(const Column& a, const Column& b) {
  // The union of both dictionaries, sorted: adding a's entries first gives them
  // provisional codes 0..|a|-1, b's get theirs through the builder's lookup.
  DictionaryBuilder builder;
  std::vector<uint32_t> b_provisional(b.dictionary()->size());
  for (uint32_t i = 0; i < a.dictionary()->size(); i++) builder.add(a.dictionary()->at(i));
  for (uint32_t i = 0; i < b.dictionary()->size(); i++) b_provisional[i] = builder.add(b.dictionary()->at(i));
  std::vector<uint32_t> remap;
  std::shared_ptr<const Dictionary> dict = builder.finish(remap);
  std::vector<uint32_t> remap_b(b_provisional.size());
  for (size_t i = 0; i < remap_b.size(); i++) remap_b[i] = remap[b_provisional[i]];
  remap.resize(a.dictionary()->size());
  const uint64_t n = a.size() + b.size();
  auto buf = Buffer::allocate(n * 4);
  auto* out = static_cast<int32_t*>(buf->mutable_data());
  if (a.size()) remap_codes(a.data<int32_t>(), a.size(), remap, out);
  if (b.size()) remap_codes(b.data<int32_t>(), b.size(), remap_b, out + a.size());
  return finish_append(a, b, std::move(buf), std::move(dict));
}

ColumnPtr append_fixed(const Column& a, const Column& b) {
  const size_t w = size_t(a.type().physical_width());
  const uint64_t n = a.size() + b.size();
  auto buf = Buffer::allocate(n * w);
  auto* out = static_cast<char*>(buf->mutable_data());
  if (a.size()) std::memcpy(out, a.data<char>(), a.size() * w);
  if (b.size()) std::memcpy(out + a.size() * w, b.data<char>(), b.size() * w);
  return finish_append(a, b, std::move(buf), nullptr);
}

}  // namespace

TablePtr append_rows(const Table& base, const Table& rows) {
  if (base.column_count() != rows.column_count())
    fail(ErrorKind::kInternal, "append to {}: {} columns, the rows have {}", base.name(), base.column_count(),
         rows.column_count());
  std::vector<ColumnPtr> cols;
  for (size_t c = 0; c < base.column_count(); c++) {
    const Column& a = base.column(c);
    const Column& b = rows.column(c);
    if (!(a.type() == b.type()))
      fail(ErrorKind::kInternal, "append to {}.{}: type {} vs {}", base.name(), a.name(), a.type().to_string(),
           b.type().to_string());
    cols.push_back(a.type().id == TypeId::kVarchar ? append_varchar(a, b) : append_fixed(a, b));
  }
  return std::make_shared<const Table>(base.name(), std::move(cols));
}

}  // namespace raydb
