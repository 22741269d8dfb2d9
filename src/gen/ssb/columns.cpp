#include "gen/ssb/columns.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <parallel/algorithm>

#include "common/error.h"

namespace raydb::ssb {

ColumnPtr integer_column(std::string name, Int32Array values) {
  auto stats = compute_stats(Type::integer(), values.buffer->data(), values.size);
  return std::make_shared<const Column>(std::move(name), Type::integer(), std::move(values.buffer), values.size,
                                        nullptr, stats);
}

namespace {

std::shared_ptr<const Dictionary> dictionary_of(const std::vector<const std::string*>& sorted_unique) {
  std::vector<uint64_t> offsets{0};
  std::string chars;
  for (auto* s : sorted_unique) {
    chars += *s;
    offsets.push_back(chars.size());
  }
  return std::make_shared<const Dictionary>(std::move(offsets), std::move(chars));
}

ColumnPtr varchar_column(std::string name, std::shared_ptr<Buffer> codes, uint64_t rows,
                         std::shared_ptr<const Dictionary> dict) {
  auto stats = compute_stats(Type::varchar(), codes->data(), rows);
  return std::make_shared<const Column>(std::move(name), Type::varchar(), std::move(codes), rows, std::move(dict),
                                        stats);
}

// Which domain indices occur in `idx` (per-thread flags, merged, so no data race).
std::vector<uint8_t> used_indices(const int32_t* idx, uint64_t rows, size_t domain_size, int threads) {
  std::vector<uint8_t> used(domain_size, 0);
#pragma omp parallel num_threads(threads)
  {
    std::vector<uint8_t> local(domain_size, 0);
#pragma omp for schedule(static)
    for (uint64_t i = 0; i < rows; i++) local[size_t(idx[i])] = 1;
#pragma omp critical
    for (size_t d = 0; d < domain_size; d++) used[d] |= local[d];
  }
  return used;
}


// A row and the first 16 bytes of its string, big-endian and zero-padded: when two
// prefixes differ they order as the strings do (std::string compares bytes as
// unsigned), so most comparisons of the sort touch no string memory (8 bytes left
// about 90 rows per prefix in TPC-H comments; 16 leave few ties). Two strings of at
// most 16 bytes with one prefix differ only in trailing zero bytes, so the shorter is
// the smaller and equal lengths mean equal strings (duplicates cost no string reads).
struct RowKey {
  uint64_t high, low;
  uint32_t row;
  uint32_t length;  // the string's length, capped at 2^32 - 1
};

constexpr uint32_t kPrefixBytes = 16;

// Orders two keys with equal prefixes: -1, 0 or 1 as a's string is less, equal, greater.
int compare_tied(const std::vector<std::string>& values, const RowKey& a, const RowKey& b) {
  if (a.length <= kPrefixBytes && b.length <= kPrefixBytes) return a.length < b.length ? -1 : a.length > b.length;
  return values[a.row].compare(values[b.row]);
}

uint64_t big_endian_word(const std::string& s, size_t at) {
  uint64_t p = 0;
  for (size_t i = at; i < std::min(at + 8, s.size()); i++) p |= uint64_t(uint8_t(s[i])) << (56 - 8 * (i - at));
  return p;
}

bool same_prefix(const RowKey& a, const RowKey& b) { return a.high == b.high && a.low == b.low; }

// All rows in string order (equal strings adjacent, in no particular order: only the
// distinct strings' order reaches the output). Parallel multiway mergesort (OpenMP).
std::vector<RowKey> sorted_row_keys(const std::vector<std::string>& values) {
  const int64_t rows = int64_t(values.size());
  std::vector<RowKey> keys(values.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < rows; i++) {
    const std::string& s = values[size_t(i)];
    const uint32_t length = uint32_t(std::min<size_t>(s.size(), UINT32_MAX));
    keys[size_t(i)] = {big_endian_word(s, 0), big_endian_word(s, 8), uint32_t(i), length};
  }
  __gnu_parallel::sort(keys.begin(), keys.end(), [&](const RowKey& a, const RowKey& b) {
    if (a.high != b.high) return a.high < b.high;
    if (a.low != b.low) return a.low < b.low;
    return compare_tied(values, a, b) < 0;
  });
  return keys;
}

bool starts_value(const std::vector<std::string>& values, const std::vector<RowKey>& keys, uint64_t i) {
  return i == 0 || !same_prefix(keys[i], keys[i - 1]) || compare_tied(values, keys[i], keys[i - 1]) != 0;
}

// Writes each row's code (rank of its string among the distinct ones) into `codes`
// and returns, per code, the sorted position where its string first occurs. Each
// thread takes one contiguous slice of the sorted keys; a count pass gives every
// slice its first code.
std::vector<uint32_t> assign_codes(const std::vector<std::string>& values, const std::vector<RowKey>& keys,
                                   int32_t* codes) {
  const uint64_t rows = keys.size();
  const int threads = std::max(1, std::min<int>(omp_get_max_threads(), int(rows / 4096) + 1));
  std::vector<uint64_t> base(size_t(threads) + 1, 0);
  std::vector<uint32_t> first;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const uint64_t lo = rows * uint64_t(t) / uint64_t(threads), hi = rows * uint64_t(t + 1) / uint64_t(threads);
    uint64_t count = 0;
    for (uint64_t i = lo; i < hi; i++) count += starts_value(values, keys, i);
    base[size_t(t) + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (int k = 0; k < threads; k++) base[size_t(k) + 1] += base[size_t(k)];
      first.resize(base[size_t(threads)]);
    }
    int64_t code = int64_t(base[size_t(t)]) - 1;
    for (uint64_t i = lo; i < hi; i++) {
      if (starts_value(values, keys, i)) first[size_t(++code)] = uint32_t(i);
      codes[keys[i].row] = int32_t(code);
    }
  }
  return first;
}

// The dictionary of the distinct strings, in code order: lengths in parallel, one
// prefix sum, then the bytes copied in parallel.
std::shared_ptr<const Dictionary> dictionary_at(const std::vector<std::string>& values,
                                                const std::vector<RowKey>& keys, const std::vector<uint32_t>& first) {
  const int64_t n = int64_t(first.size());
  std::vector<uint64_t> offsets(first.size() + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t d = 0; d < n; d++) offsets[size_t(d) + 1] = values[keys[first[size_t(d)]].row].size();
  for (size_t d = 0; d < first.size(); d++) offsets[d + 1] += offsets[d];
  std::string chars(offsets.back(), '\0');
#pragma omp parallel for schedule(static)
  for (int64_t d = 0; d < n; d++) {
    const std::string& s = values[keys[first[size_t(d)]].row];
    std::memcpy(chars.data() + offsets[size_t(d)], s.data(), s.size());
  }
  return std::make_shared<const Dictionary>(std::move(offsets), std::move(chars));
}

}  // namespace

ColumnPtr varchar_from_domain(std::string name, const std::vector<std::string>& domain, Int32Array indices,
                              int threads) {
  int32_t* idx = indices.data();
  const uint64_t rows = indices.size;
  std::vector<uint8_t> used = used_indices(idx, rows, domain.size(), threads);

  std::vector<uint32_t> order(domain.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return domain[a] < domain[b]; });

  std::vector<int32_t> code_of(domain.size(), -1);
  std::vector<const std::string*> sorted;
  bool identity = true;
  for (uint32_t d : order) {
    if (!used[d]) continue;
    if (!sorted.empty() && *sorted.back() == domain[d])
      fail(ErrorKind::kInternal, "column {}: domain value '{}' is listed twice", name, domain[d]);
    code_of[d] = int32_t(sorted.size());
    identity = identity && code_of[d] == int32_t(d);
    sorted.push_back(&domain[d]);
  }
  if (!identity) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (uint64_t i = 0; i < rows; i++) idx[i] = code_of[size_t(idx[i])];
  }
  return varchar_column(std::move(name), std::move(indices.buffer), rows, dictionary_of(sorted));
}

ColumnPtr varchar_from_strings(std::string name, const std::vector<std::string>& values) {
  const uint64_t rows = values.size();
  if (rows > uint64_t(INT32_MAX)) fail(ErrorKind::kInvalidInput, "column {} has too many rows ({})", name, rows);
  const std::vector<RowKey> keys = sorted_row_keys(values);
  Int32Array codes(rows);
  const std::vector<uint32_t> first = assign_codes(values, keys, codes.data());
  return varchar_column(std::move(name), std::move(codes.buffer), rows, dictionary_at(values, keys, first));
}

TablePtr assemble_table(const std::string& table, std::vector<ColumnPtr> columns) {
  const TableSchema& schema = table_schema(table);
  std::vector<ColumnPtr> ordered;
  for (const ColumnDef& def : schema.columns) {
    auto it = std::find_if(columns.begin(), columns.end(), [&](const ColumnPtr& c) { return c && c->name() == def.name; });
    if (it == columns.end()) fail(ErrorKind::kInternal, "SSB generator produced no column {}.{}", table, def.name);
    if (!((*it)->type() == def.type))
      fail(ErrorKind::kInternal, "SSB generator made {}.{} {}, the schema says {}", table, def.name,
           (*it)->type().to_string(), def.type.to_string());
    ordered.push_back(std::move(*it));
    *it = nullptr;
  }
  for (auto& c : columns)
    if (c) fail(ErrorKind::kInternal, "SSB generator produced column {}.{} that the schema lacks", table, c->name());
  return std::make_shared<const Table>(schema.name, std::move(ordered));
}

}  // namespace raydb::ssb
