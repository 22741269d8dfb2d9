#include "gen/ssb/columns.h"

#include <omp.h>

#include <algorithm>
#include <numeric>

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
  std::vector<uint32_t> order(rows);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return values[a] < values[b]; });

  Int32Array codes(rows);
  std::vector<const std::string*> sorted;
  for (uint32_t r : order) {
    if (sorted.empty() || *sorted.back() != values[r]) sorted.push_back(&values[r]);
    codes[r] = int32_t(sorted.size() - 1);
  }
  return varchar_column(std::move(name), std::move(codes.buffer), rows, dictionary_of(sorted));
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
