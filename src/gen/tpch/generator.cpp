#include "gen/tpch/generator.h"

#include <omp.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "common/error.h"
#include "common/progress.h"
#include "common/timer.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace {

// dbgen's row count of a table of `base` rows at SF 1 (see row_counts).
uint64_t scaled(uint64_t base, double sf) {
  if (sf < 1) {
    const uint64_t thousandths = uint64_t(1000 * sf);  // dbgen's int_scale, truncated like it
    return std::max<uint64_t>(1, thousandths * base / 1000);
  }
  return uint64_t(double(base) * sf);
}

// A table other than lineitem and orders, with one progress line when it is done.
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
  c.part = scaled(200'000, sf);
  c.supplier = scaled(10'000, sf);
  c.customer = scaled(150'000, sf);
  c.orders = scaled(1'500'000, sf);
  c.clerks = std::max<uint64_t>(1'000, scaled(1'000, sf));
  // Sparse order keys reach about 4 x orders; o_orderkey is an INTEGER.
  if (c.orders > uint64_t(std::numeric_limits<int32_t>::max()) / 4 - 8)
    fail(ErrorKind::kInvalidInput, "scale factor {} is too large: TPC-H order keys would exceed the INTEGER range", sf);
  return c;
}

std::vector<TablePtr> generate(const GenOptions& options) {
  if (options.threads < 0) fail(ErrorKind::kInvalidInput, "thread count must be positive, got {}", options.threads);
  const RowCounts counts = row_counts(options.scale_factor);
  Timer timer;
  const std::shared_ptr<const TextPool> text = TextPool::shared(options.seed);  // one stream: not parallel
  if (options.progress && !progress_quiet())
    std::fprintf(stderr, "generate text pool: %lld MiB in %.2f s\n", (long long)(TextPool::kPoolBytes >> 20),
                 timer.elapsed_ms() / 1e3);
  TableJob job{counts, options.seed, options.threads > 0 ? options.threads : omp_get_max_threads(), options.progress,
               text.get()};
  std::vector<TablePtr> tables = generate_orders_lineitem(job);  // lineitem, orders
  tables.push_back(timed(job, "generate customer", generate_customer));
  tables.push_back(timed(job, "generate part", generate_part));
  tables.push_back(timed(job, "generate partsupp", generate_partsupp));
  tables.push_back(timed(job, "generate supplier", generate_supplier));
  tables.push_back(timed(job, "generate nation", generate_nation));
  tables.push_back(timed(job, "generate region", generate_region));
  return tables;
}

}  // namespace raydb::tpch
