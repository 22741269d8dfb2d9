#include "gen/ssb/columns.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "common/error.h"
#include "gen/ssb/string_sort.h"

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


// Writes each row's code (rank of its string among the distinct ones) into `codes`
// and returns, per code, the row where its string first occurs in sorted order. Each
// thread takes one contiguous slice of the sorted rows; a count pass gives every slice
// its first code.
std::vector<uint32_t> assign_codes(const StringOrder& order, int32_t* codes) {
  const uint64_t rows = order.rows.size();
  const int threads = std::max(1, std::min<int>(omp_get_max_threads(), int(rows / 4096) + 1));
  std::vector<uint64_t> base(size_t(threads) + 1, 0);
  std::vector<uint32_t> first;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const uint64_t lo = rows * uint64_t(t) / uint64_t(threads), hi = rows * uint64_t(t + 1) / uint64_t(threads);
    uint64_t count = 0;
    for (uint64_t i = lo; i < hi; i++) count += order.new_value[i];
    base[size_t(t) + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (int k = 0; k < threads; k++) base[size_t(k) + 1] += base[size_t(k)];
      first.resize(base[size_t(threads)]);
    }
    int64_t code = int64_t(base[size_t(t)]) - 1;
    for (uint64_t i = lo; i < hi; i++) {
      if (order.new_value[i]) first[size_t(++code)] = order.rows[i];
      codes[order.rows[i]] = int32_t(code);
    }
  }
  return first;
}

// The dictionary of the distinct strings, in code order (`first`: a row of each):
// lengths in parallel, one prefix sum, then the bytes copied in parallel.
std::shared_ptr<const Dictionary> dictionary_at(const std::vector<std::string>& values,
                                                const std::vector<uint32_t>& first) {
  const int64_t n = int64_t(first.size());
  std::vector<uint64_t> offsets(first.size() + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t d = 0; d < n; d++) offsets[size_t(d) + 1] = values[first[size_t(d)]].size();
  for (size_t d = 0; d < first.size(); d++) offsets[d + 1] += offsets[d];
  std::string chars(offsets.back(), '\0');
#pragma omp parallel for schedule(static)
  for (int64_t d = 0; d < n; d++) {
    const std::string& s = values[first[size_t(d)]];
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
  const StringOrder order = sort_strings(values);
  Int32Array codes(rows);
  const std::vector<uint32_t> first = assign_codes(order, codes.data());
  return varchar_column(std::move(name), std::move(codes.buffer), rows, dictionary_at(values, first));
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
