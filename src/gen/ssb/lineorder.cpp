// lineorder: 1,500,000 x SF orders of 1..7 lines each, as dbgen's mk_order makes them.
#include <optional>

#include "common/progress.h"
#include "gen/ssb/columns.h"
#include "gen/ssb/domains.h"
#include "gen/ssb/random.h"
#include "gen/ssb/tables.h"
#include "raydb/types.h"

namespace raydb::ssb {

namespace d = domains;

namespace {

constexpr uint64_t kOrdersPerBlock = 1 << 14;

// Lines of order `o` come from their own stream, so the row offsets of every block
// are known before any order is generated.
int lines_of_order(uint64_t seed, uint64_t o) { return int(RowRandom(seed, Stream::kOrderLines, o).uniform(1, 7)); }

// dbgen's sparse order keys: of every 32 keys only the first 8 are used.
int32_t order_key(uint64_t o) {
  const uint64_t i = o + 1;
  return int32_t(((i >> 3) << 5) | (i & 7));
}

// dbgen leaves every third customer without orders: a key divisible by 3 moves to
// the next key (or the previous one at the end of the range).
int32_t ordering_customer(RowRandom& rng, int64_t customers) {
  int64_t k = rng.uniform(1, customers);
  if (k % 3 == 0) k = k < customers ? k + 1 : k - 1;
  return int32_t(k);
}

std::vector<int32_t> yyyymmdd_by_day() {
  std::vector<int32_t> v(d::kCalendarDays);
  const int32_t first = days_from_civil(1992, 1, 1);
  for (int i = 0; i < d::kCalendarDays; i++) {
    int y;
    unsigned m, dd;
    civil_from_days(first + i, y, m, dd);
    v[size_t(i)] = int32_t(y * 10000 + int(m) * 100 + int(dd));
  }
  return v;
}

// Exclusive prefix sums of the line counts of each block of orders; back() = rows.
std::vector<uint64_t> block_row_offsets(const TableJob& job, uint64_t blocks) {
  const uint64_t orders = job.counts.orders;
  std::vector<uint64_t> start(blocks + 1, 0);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t b = 0; b < blocks; b++) {
    uint64_t lines = 0;
    for (uint64_t o = b * kOrdersPerBlock; o < std::min(orders, (b + 1) * kOrdersPerBlock); o++)
      lines += uint64_t(lines_of_order(job.seed, o));
    start[b + 1] = lines;
  }
  for (uint64_t b = 0; b < blocks; b++) start[b + 1] += start[b];
  return start;
}

struct LineorderArrays {
  explicit LineorderArrays(uint64_t n)
      : orderkey(n), linenumber(n), custkey(n), partkey(n), suppkey(n), orderdate(n), orderpriority(n),
        shippriority(n), quantity(n), extendedprice(n), ordtotalprice(n), discount(n), revenue(n), supplycost(n),
        tax(n), commitdate(n), shipmode(n) {}
  Int32Array orderkey, linenumber, custkey, partkey, suppkey, orderdate, orderpriority, shippriority, quantity,
      extendedprice, ordtotalprice, discount, revenue, supplycost, tax, commitdate, shipmode;
};

// Writes order `o` into rows [row, row + its line count).
void generate_order(const TableJob& job, uint64_t o, uint64_t row, const std::vector<int32_t>& dates,
                    LineorderArrays& a) {
  const int lines = lines_of_order(job.seed, o);
  RowRandom rng(job.seed, Stream::kOrder, o);
  const int day = int(rng.uniform(0, d::kOrderDateSpan - 1));
  const int32_t cust = ordering_customer(rng, int64_t(job.counts.customer));
  const int32_t priority = int32_t(rng.uniform(0, int64_t(d::kOrderPriorities.size()) - 1));
  int64_t total = 0;
  for (int l = 0; l < lines; l++) {
    const uint64_t r = row + uint64_t(l);
    const int64_t part = rng.uniform(1, int64_t(job.counts.part));
    const int64_t supp = rng.uniform(1, int64_t(job.counts.supplier));
    const int64_t qty = rng.uniform(1, 50);
    const int64_t disc = rng.uniform(0, 10);
    const int64_t tax = rng.uniform(0, 8);
    const int commit = day + int(rng.uniform(d::kCommitMinDays, d::kCommitMaxDays));
    const int32_t mode = int32_t(rng.uniform(0, int64_t(d::kShipModes.size()) - 1));
    const int64_t price = d::retail_price(part);
    const int64_t ext = price * qty;
    const int64_t rev = ext * (100 - disc) / 100;
    total += rev * (100 + tax) / 100;  // dbgen's order total: revenue plus tax, in cents

    a.orderkey[r] = order_key(o);
    a.linenumber[r] = l + 1;
    a.custkey[r] = cust;
    a.partkey[r] = int32_t(part);
    a.suppkey[r] = int32_t(supp);
    a.orderdate[r] = dates[size_t(day)];
    a.orderpriority[r] = priority;
    a.shippriority[r] = 0;
    a.quantity[r] = int32_t(qty);
    a.extendedprice[r] = int32_t(ext);
    a.discount[r] = int32_t(disc);
    a.revenue[r] = int32_t(rev);
    a.supplycost[r] = int32_t(6 * price / 10);
    a.tax[r] = int32_t(tax);
    a.commitdate[r] = dates[size_t(commit)];
    a.shipmode[r] = mode;
  }
  for (int l = 0; l < lines; l++) a.ordtotalprice[row + uint64_t(l)] = int32_t(total);
}

}  // namespace

TablePtr generate_lineorder(const TableJob& job) {
  const uint64_t orders = job.counts.orders;
  const uint64_t blocks = (orders + kOrdersPerBlock - 1) / kOrdersPerBlock;
  const std::vector<uint64_t> start = block_row_offsets(job, blocks);
  const uint64_t rows = start[blocks];
  const std::vector<int32_t> dates = yyyymmdd_by_day();

  LineorderArrays a(rows);
  std::optional<Progress> progress;
  if (job.progress) progress.emplace("generate lineorder", rows);
#pragma omp parallel for schedule(dynamic, 1) num_threads(job.threads)
  for (uint64_t b = 0; b < blocks; b++) {
    uint64_t row = start[b];
    for (uint64_t o = b * kOrdersPerBlock; o < std::min(orders, (b + 1) * kOrdersPerBlock); o++) {
      generate_order(job, o, row, dates, a);
      row += uint64_t(lines_of_order(job.seed, o));
    }
    if (progress) progress->add(start[b + 1] - start[b]);
  }
  if (progress) progress->finish();

  auto strings = [](auto& list) { return std::vector<std::string>(list.begin(), list.end()); };
  const int T = job.threads;
  std::vector<ColumnPtr> cols;
  cols.push_back(integer_column("lo_orderkey", std::move(a.orderkey)));
  cols.push_back(integer_column("lo_linenumber", std::move(a.linenumber)));
  cols.push_back(integer_column("lo_custkey", std::move(a.custkey)));
  cols.push_back(integer_column("lo_partkey", std::move(a.partkey)));
  cols.push_back(integer_column("lo_suppkey", std::move(a.suppkey)));
  cols.push_back(integer_column("lo_orderdate", std::move(a.orderdate)));
  cols.push_back(varchar_from_domain("lo_orderpriority", strings(d::kOrderPriorities), std::move(a.orderpriority), T));
  cols.push_back(varchar_from_domain("lo_shippriority", {"0"}, std::move(a.shippriority), T));
  cols.push_back(integer_column("lo_quantity", std::move(a.quantity)));
  cols.push_back(integer_column("lo_extendedprice", std::move(a.extendedprice)));
  cols.push_back(integer_column("lo_ordtotalprice", std::move(a.ordtotalprice)));
  cols.push_back(integer_column("lo_discount", std::move(a.discount)));
  cols.push_back(integer_column("lo_revenue", std::move(a.revenue)));
  cols.push_back(integer_column("lo_supplycost", std::move(a.supplycost)));
  cols.push_back(integer_column("lo_tax", std::move(a.tax)));
  cols.push_back(integer_column("lo_commitdate", std::move(a.commitdate)));
  cols.push_back(varchar_from_domain("lo_shipmode", strings(d::kShipModes), std::move(a.shipmode), T));
  return assemble_table("lineorder", std::move(cols));
}

}  // namespace raydb::ssb
