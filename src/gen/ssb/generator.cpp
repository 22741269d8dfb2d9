#include "gen/ssb/generator.h"

#include <omp.h>

#include <cmath>
#include <limits>
#include <optional>

#include "common/error.h"
#include "common/progress.h"
#include "gen/ssb/tables.h"

namespace raydb::ssb {

namespace {

// base x SF rounded down, at least 1 (as dbgen truncates scaled row counts); the
// epsilon keeps 30,000 x 0.07 from rounding down to 2,099.
uint64_t scaled(double base, double sf) {
  return std::max<uint64_t>(1, uint64_t(std::floor(base * sf + 1e-6)));
}

// A dimension table, with one progress line when it is done.
TablePtr timed(const TableJob& job, const char* what, TablePtr (*make)(const TableJob&)) {
  std::optional<Progress> progress;
  if (job.progress) progress.emplace(what, 0);
  TablePtr t = make(job);
  if (progress) {
    progress->add(t->row_count());
    progress->finish();
  }
  return t;
}

}  // namespace

RowCounts row_counts(double sf) {
  if (!std::isfinite(sf) || sf <= 0) fail(ErrorKind::kInvalidInput, "scale factor must be a positive number, got {}", sf);
  RowCounts c;
  c.customer = scaled(30'000, sf);
  c.supplier = scaled(2'000, sf);
  c.part = sf >= 1 ? uint64_t(200'000 * (1 + std::floor(std::log2(sf)))) : scaled(200'000, sf);
  c.date = 2556;
  c.orders = scaled(1'500'000, sf);
  // Sparse order keys reach about 4 x orders; lo_orderkey is an INTEGER.
  if (c.orders > uint64_t(std::numeric_limits<int32_t>::max()) / 4 - 8)
    fail(ErrorKind::kInvalidInput, "scale factor {} is too large: SSB order keys would exceed the INTEGER range", sf);
  return c;
}

std::vector<TablePtr> generate(const GenOptions& options) {
  if (options.threads < 0) fail(ErrorKind::kInvalidInput, "thread count must be positive, got {}", options.threads);
  TableJob job{row_counts(options.scale_factor), options.seed,
               options.threads > 0 ? options.threads : omp_get_max_threads(), options.progress};
  std::vector<TablePtr> tables;
  tables.push_back(generate_lineorder(job));
  tables.push_back(timed(job, "generate customer", generate_customer));
  tables.push_back(timed(job, "generate supplier", generate_supplier));
  tables.push_back(timed(job, "generate part", generate_part));
  tables.push_back(timed(job, "generate date", [](const TableJob&) { return generate_date(); }));
  return tables;
}

}  // namespace raydb::ssb
