#include "storage/table_sort.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <numeric>

#include "common/error.h"

namespace raydb {

namespace {

// One key column as integers in sort order, read once (the sort compares these, not
// the column): stored integers (VARCHAR codes are order-preserving), doubles mapped to
// order-preserving integers with -0 as 0 and NaN last; NULL flags where it has NULLs.
struct SortColumn {
  std::vector<int64_t> keys;
  std::vector<uint8_t> nulls;  // empty: no NULL
};

int64_t double_order(double d) {
  if (std::isnan(d)) return INT64_MAX;
  if (d == 0) d = 0;  // -0.0 ties with 0.0
  const int64_t bits = std::bit_cast<int64_t>(d);
  return bits >= 0 ? bits : -(bits & INT64_MAX) - 1;  // negative doubles: larger magnitude first
}

SortColumn sort_column(const Column& c) {
  SortColumn s;
  const uint64_t n = c.size();
  s.keys.resize(n);
  if (c.type().id == TypeId::kDouble) {
    const double* v = c.data<double>();
    for (uint64_t i = 0; i < n; i++) s.keys[i] = double_order(v[i]);
  } else if (c.type().physical_width() == 4) {
    const int32_t* v = c.data<int32_t>();
    for (uint64_t i = 0; i < n; i++) s.keys[i] = v[i];
  } else {
    const int64_t* v = c.data<int64_t>();
    std::copy(v, v + n, s.keys.begin());
  }
  if (c.has_nulls()) {
    s.nulls.resize(n);
    for (uint64_t i = 0; i < n; i++) s.nulls[i] = c.is_null(i) ? 1 : 0;
  }
  return s;
}

template <typename T>
std::shared_ptr<Buffer> gather(const void* src, const std::vector<uint32_t>& perm) {
  auto out = Buffer::allocate(perm.size() * sizeof(T));
  const T* in = static_cast<const T*>(src);
  T* o = static_cast<T*>(out->mutable_data());
  const int64_t n = int64_t(perm.size());
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t i = 0; i < n; i++) o[i] = in[perm[size_t(i)]];
  return out;
}

std::shared_ptr<Buffer> gather_bits(const uint8_t* bits, const std::vector<uint32_t>& perm) {
  auto out = Buffer::allocate(validity_bytes(perm.size()));
  auto* o = static_cast<uint8_t*>(out->mutable_data());
  std::memset(o, 0, validity_bytes(perm.size()));
  for (size_t i = 0; i < perm.size(); i++)
    if ((bits[perm[i] >> 3] >> (perm[i] & 7)) & 1) o[i >> 3] |= uint8_t(1u << (i & 7));
  return out;
}

// Column c with its rows in `perm` order; dictionary, statistics and NULL count stay.
ColumnPtr permuted(const Column& c, const std::vector<uint32_t>& perm) {
  const void* src = c.buffer() ? c.buffer()->data() : nullptr;
  auto data = c.type().physical_width() == 4 ? gather<int32_t>(src, perm) : gather<int64_t>(src, perm);
  auto col = std::make_shared<Column>(c.name(), c.type(), std::move(data), perm.size(), c.dictionary_ptr(),
                                      c.recorded_stats());
  col->set_nullable(c.nullable());
  if (c.has_nulls())
    col->set_validity(gather_bits(static_cast<const uint8_t*>(c.validity()->data()), perm), c.null_count());
  return col;
}

}  // namespace

std::vector<TablePtr> sort_tables(const std::vector<TablePtr>& tables, const std::vector<std::string>& key) {
  if (key.empty()) return tables;
  std::vector<TablePtr> out;
  bool any = false;
  for (const TablePtr& t : tables) {
    bool has_all = true;
    for (const std::string& k : key) has_all = has_all && t->find_column(k) >= 0;
    out.push_back(has_all ? sort_table(t, key) : t);
    any = any || has_all;
  }
  if (!any) {
    std::string list;
    for (const std::string& k : key) list += (list.empty() ? "" : ",") + k;
    fail(ErrorKind::kInvalidInput, "--sort-by {}: no table being loaded has {}", list,
         key.size() == 1 ? "that column" : "all those columns");
  }
  return out;
}

std::vector<std::string> parse_sort_key(const std::string& text) {
  std::vector<std::string> key;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto b = part.find_first_not_of(" \t"), e = part.find_last_not_of(" \t");
    part = b == std::string::npos ? "" : part.substr(b, e - b + 1);
    if (part.empty()) fail(ErrorKind::kInvalidInput, "--sort-by '{}' has an empty column name", text);
    key.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return key;
}

TablePtr sort_table(const TablePtr& table, const std::vector<std::string>& key) {
  if (key.empty()) return table;
  std::vector<const Column*> cols;
  std::vector<std::string> names;
  for (const std::string& k : key) {
    const int i = table->find_column(k);
    if (i < 0) fail(ErrorKind::kInvalidInput, "unknown sort key column '{}' in table {}", k, table->name());
    const std::string& name = table->column(size_t(i)).name();
    if (std::find(names.begin(), names.end(), name) != names.end())
      fail(ErrorKind::kInvalidInput, "sort key column '{}' is named twice", name);
    cols.push_back(&table->column(size_t(i)));
    names.push_back(name);
  }
  if (table->row_count() >= (uint64_t(1) << 32))
    fail(ErrorKind::kNotImplemented, "tables of 2^32 rows or more cannot be sorted yet");
  std::vector<SortColumn> keys;
  for (auto* c : cols) keys.push_back(sort_column(*c));  // data() verifies a mapped column first
  std::vector<uint32_t> perm(table->row_count());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
    for (const SortColumn& k : keys) {
      if (!k.nulls.empty() && k.nulls[a] != k.nulls[b]) return k.nulls[a] > k.nulls[b];  // NULLs first
      if (k.keys[a] != k.keys[b]) return k.keys[a] < k.keys[b];
    }
    return false;
  });
  std::vector<ColumnPtr> out;
  for (size_t i = 0; i < table->column_count(); i++) out.push_back(permuted(table->column(i), perm));
  auto sorted = std::make_shared<Table>(table->name(), std::move(out));
  sorted->set_sort_key(std::move(names));
  return sorted;
}

}  // namespace raydb
