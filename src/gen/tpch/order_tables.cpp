// orders and lineitem (clause 4.2.3): 1,500,000 x SF orders of 1..7 lines each.
#include <fmt/format.h>

#include <optional>

#include "common/progress.h"
#include "gen/ssb/columns.h"
#include "gen/ssb/domains.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace d = ssb::domains;  // order priorities and ship modes are SSB's lists too

namespace {

constexpr uint64_t kOrdersPerBlock = 1 << 13;
const std::vector<std::string> kShipInstructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
const std::vector<std::string> kFlags = {"A", "F", "N", "O", "P", "R"};  // return flags and statuses
enum Flag : int32_t { kA, kF, kN, kO, kP, kR };

// The lines of order `o` come from their own stream, so the row offsets of every
// block are known before any order is generated.
int lines_of_order(uint64_t seed, uint64_t o) { return int(RowRandom(seed, Stream::kOrderLines, o).uniform(1, 7)); }

// Sparse order keys (clause 4.2.3): of every 32 keys only the first 8 are used.
int32_t order_key(uint64_t o) {
  const uint64_t i = o + 1;
  return int32_t(((i >> 3) << 5) | (i & 7));
}

struct OrderArrays {
  explicit OrderArrays(uint64_t n)
      : key(n), cust(n), date(n), shippriority(n, 0), total(n), status(n), priority(n), clerk(n), comment(n) {}
  std::vector<int32_t> key, cust, date, shippriority;
  std::vector<int64_t> total;
  ssb::Int32Array status, priority;
  std::vector<std::string> clerk, comment;
};

struct LineArrays {
  explicit LineArrays(uint64_t n)
      : orderkey(n), partkey(n), suppkey(n), linenumber(n), shipdate(n), commitdate(n), receiptdate(n),
        quantity(n), extendedprice(n), discount(n), tax(n), returnflag(n), linestatus(n), shipinstruct(n),
        shipmode(n), comment(n) {}
  std::vector<int32_t> orderkey, partkey, suppkey, linenumber, shipdate, commitdate, receiptdate;
  std::vector<int64_t> quantity, extendedprice, discount, tax;
  ssb::Int32Array returnflag, linestatus, shipinstruct, shipmode;
  std::vector<std::string> comment;
};

// Writes order `o` and its lines (rows [row, row + lines)).
void generate_order(const TableJob& job, uint64_t o, uint64_t row, OrderArrays& ord, LineArrays& li) {
  RowRandom rng(job.seed, Stream::kOrder, o);
  const int64_t customers = int64_t(job.counts.customer), parts = int64_t(job.counts.part);
  const int64_t suppliers = int64_t(job.counts.supplier);
  int64_t cust;
  do cust = rng.uniform(1, customers);  // every third customer places no orders
  while (cust % 3 == 0);
  const int32_t date = start_date() + int32_t(rng.uniform(0, end_date() - 151 - start_date()));
  ord.key[o] = order_key(o);
  ord.cust[o] = int32_t(cust);
  ord.date[o] = date;
  ord.priority[o] = int32_t(rng.uniform(0, int64_t(d::kOrderPriorities.size()) - 1));
  ord.clerk[o] = fmt::format("Clerk#{:09d}", rng.uniform(1, int64_t(job.counts.clerks)));
  ord.comment[o] = job.text->text(rng, 19, 78);

  const int lines = lines_of_order(job.seed, o);
  __int128 total = 0;  // in 10^-6 dollars: cents x (100 + tax) x (100 - discount)
  int shipped = 0;
  for (int l = 0; l < lines; l++) {
    const uint64_t r = row + uint64_t(l);
    const int64_t part = rng.uniform(1, parts);
    const int64_t qty = rng.uniform(1, 50), disc = rng.uniform(0, 10), tax = rng.uniform(0, 8);
    li.orderkey[r] = ord.key[o];
    li.partkey[r] = int32_t(part);
    li.suppkey[r] = part_supplier(part, int(rng.uniform(0, 3)), suppliers);
    li.linenumber[r] = l + 1;
    li.quantity[r] = qty * 100;
    li.extendedprice[r] = qty * retail_price_cents(part);
    li.discount[r] = disc;
    li.tax[r] = tax;
    li.shipdate[r] = date + int32_t(rng.uniform(1, 121));
    li.commitdate[r] = date + int32_t(rng.uniform(30, 90));
    li.receiptdate[r] = li.shipdate[r] + int32_t(rng.uniform(1, 30));
    li.returnflag[r] = li.receiptdate[r] <= current_date() ? (rng.uniform(0, 1) ? kR : kA) : kN;
    li.linestatus[r] = li.shipdate[r] > current_date() ? kO : kF;
    shipped += li.linestatus[r] == kF;
    li.shipinstruct[r] = int32_t(rng.uniform(0, 3));
    li.shipmode[r] = int32_t(rng.uniform(0, int64_t(d::kShipModes.size()) - 1));
    li.comment[r] = job.text->text(rng, 10, 43);
    total += __int128(li.extendedprice[r]) * (100 + tax) * (100 - disc);
  }
  ord.total[o] = int64_t((total + 5000) / 10000);  // the exact sum, rounded once to cents
  ord.status[o] = shipped == lines ? kF : shipped == 0 ? kO : kP;
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

std::vector<std::string> strings(const auto& list) { return std::vector<std::string>(list.begin(), list.end()); }

TablePtr orders_table(OrderArrays& a, int threads) {
  return assemble_table(
      "orders", {int_column("o_orderkey", a.key), int_column("o_custkey", a.cust),
                 ssb::varchar_from_domain("o_orderstatus", kFlags, std::move(a.status), threads),
                 money_column("o_totalprice", a.total), date_column("o_orderdate", a.date),
                 ssb::varchar_from_domain("o_orderpriority", strings(d::kOrderPriorities), std::move(a.priority), threads),
                 text_column("o_clerk", a.clerk), int_column("o_shippriority", a.shippriority),
                 text_column("o_comment", a.comment)});
}

TablePtr lineitem_table(LineArrays& a, int threads) {
  return assemble_table(
      "lineitem",
      {int_column("l_orderkey", a.orderkey), int_column("l_partkey", a.partkey), int_column("l_suppkey", a.suppkey),
       int_column("l_linenumber", a.linenumber), money_column("l_quantity", a.quantity),
       money_column("l_extendedprice", a.extendedprice), money_column("l_discount", a.discount),
       money_column("l_tax", a.tax), ssb::varchar_from_domain("l_returnflag", kFlags, std::move(a.returnflag), threads),
       ssb::varchar_from_domain("l_linestatus", kFlags, std::move(a.linestatus), threads),
       date_column("l_shipdate", a.shipdate), date_column("l_commitdate", a.commitdate),
       date_column("l_receiptdate", a.receiptdate),
       ssb::varchar_from_domain("l_shipinstruct", kShipInstructions, std::move(a.shipinstruct), threads),
       ssb::varchar_from_domain("l_shipmode", strings(d::kShipModes), std::move(a.shipmode), threads),
       text_column("l_comment", a.comment)});
}

}  // namespace

std::vector<TablePtr> generate_orders_lineitem(const TableJob& job) {
  const uint64_t orders = job.counts.orders;
  const uint64_t blocks = (orders + kOrdersPerBlock - 1) / kOrdersPerBlock;
  const std::vector<uint64_t> start = block_row_offsets(job, blocks);
  OrderArrays ord(orders);
  LineArrays li(start[blocks]);
  std::optional<Progress> progress;
  if (job.progress) progress.emplace("generate orders and lineitem", start[blocks]);
#pragma omp parallel for schedule(dynamic, 1) num_threads(job.threads)
  for (uint64_t b = 0; b < blocks; b++) {
    uint64_t row = start[b];
    for (uint64_t o = b * kOrdersPerBlock; o < std::min(orders, (b + 1) * kOrdersPerBlock); o++) {
      generate_order(job, o, row, ord, li);
      row += uint64_t(lines_of_order(job.seed, o));
    }
    if (progress) progress->add(start[b + 1] - start[b]);
  }
  if (progress) progress->finish();
  // Dictionaries of the text columns (sorts of every row's string): timed on their own.
  if (job.progress) progress.emplace("encode lineitem and orders", start[blocks] + orders);
  std::vector<TablePtr> out;
  out.push_back(lineitem_table(li, job.threads));
  out.push_back(orders_table(ord, job.threads));
  if (progress) {
    progress->add(start[blocks] + orders);
    progress->finish();
  }
  return out;
}

}  // namespace raydb::tpch
