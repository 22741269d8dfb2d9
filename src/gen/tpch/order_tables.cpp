// orders and lineitem (clause 4.2.3): 1,500,000 x SF orders of 1..7 lines each,
// drawn as the TPC-H kit's dbgen draws them.
#include <fmt/format.h>

#include <array>
#include <optional>

#include "common/progress.h"
#include "gen/ssb/columns.h"
#include "gen/ssb/domains.h"
#include "gen/tpch/distributions.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace d = ssb::domains;  // order priorities and ship modes: dbgen's lists in dbgen's order

namespace {

constexpr uint64_t kOrdersPerBlock = 1 << 13;
const std::vector<std::string> kFlags = {"A", "F", "N", "O", "P", "R"};  // return flags and statuses
enum Flag : int32_t { kA, kF, kN, kO, kP, kR };

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

// The streams of orders and of their lines, positioned at one order; every stream
// moves one order at a time (the line streams draw for up to 7 lines per order).
class OrderStreams {
 public:
  OrderStreams(uint64_t seed, uint64_t order) {
    for (int c = int(Column::kOrderClerk); c <= int(Column::kLineComment); c++)
      streams_[size_t(c - kFirst)] = stream_at(Column(c), seed, order);
  }
  ColumnStream& operator[](Column c) { return streams_[size_t(int(c) - kFirst)]; }
  void next_row() {
    for (ColumnStream& s : streams_) s.next_row();
  }

 private:
  static constexpr int kFirst = int(Column::kOrderClerk);
  std::array<ColumnStream, size_t(int(Column::kLineComment) - kFirst + 1)> streams_;
};

// Writes order `o` and its lines (rows [row, row + lines)), drawing in dbgen's
// order; returns the number of lines.
int generate_order(const TableJob& job, uint64_t o, uint64_t row, OrderStreams& s, OrderArrays& ord,
                    LineArrays& li) {
  const int64_t customers = int64_t(job.counts.customer), parts = int64_t(job.counts.part);
  const int64_t suppliers = int64_t(job.counts.supplier);
  int64_t cust = s[Column::kOrderCustomer].uniform(1, customers);
  for (int64_t delta = 1; cust % 3 == 0; delta = -delta)  // every third customer places no orders
    cust = std::min(cust + delta, customers);
  const int32_t date = start_date() + int32_t(s[Column::kOrderDate].uniform(0, end_date() - 151 - start_date()));
  ord.key[o] = order_key(o);
  ord.cust[o] = int32_t(cust);
  ord.date[o] = date;
  ord.priority[o] = int32_t(s[Column::kOrderPriority].uniform(0, int64_t(d::kOrderPriorities.size()) - 1));
  ord.clerk[o] = fmt::format("Clerk#{:09d}", s[Column::kOrderClerk].uniform(1, int64_t(job.counts.clerks)));
  ord.comment[o] = job.text->text(s[Column::kOrderComment], 19, 78);

  const int lines = int(s[Column::kOrderLines].uniform(1, 7));
  int64_t total = 0;  // in cents, truncated per line as dbgen sums it
  int shipped = 0;
  for (int l = 0; l < lines; l++) {
    const uint64_t r = row + uint64_t(l);
    const int64_t qty = s[Column::kLineQuantity].uniform(1, 50), disc = s[Column::kLineDiscount].uniform(0, 10);
    const int64_t tax = s[Column::kLineTax].uniform(0, 8);
    li.shipinstruct[r] = int32_t(lists::kShipInstructions.pick(s[Column::kLineInstruct]));
    li.shipmode[r] = int32_t(s[Column::kLineShipMode].uniform(0, int64_t(d::kShipModes.size()) - 1));
    li.comment[r] = job.text->text(s[Column::kLineComment], 10, 43);
    const int64_t part = s[Column::kLinePart].uniform(1, parts);
    li.orderkey[r] = ord.key[o];
    li.partkey[r] = int32_t(part);
    li.suppkey[r] = part_supplier(part, int(s[Column::kLineSupplier].uniform(0, 3)), suppliers);
    li.linenumber[r] = l + 1;
    li.quantity[r] = qty * 100;
    li.extendedprice[r] = qty * retail_price_cents(part);
    li.discount[r] = disc;
    li.tax[r] = tax;
    total += li.extendedprice[r] * (100 - disc) / 100 * (100 + tax) / 100;
    li.shipdate[r] = date + int32_t(s[Column::kLineShipDate].uniform(1, 121));
    li.commitdate[r] = date + int32_t(s[Column::kLineCommitDate].uniform(30, 90));
    li.receiptdate[r] = li.shipdate[r] + int32_t(s[Column::kLineReceiptDate].uniform(1, 30));
    li.returnflag[r] = kN;
    if (li.receiptdate[r] <= current_date())
      li.returnflag[r] = lists::kReturnFlags.pick(s[Column::kLineReturnFlag]) == 0 ? kR : kA;
    li.linestatus[r] = li.shipdate[r] > current_date() ? kO : kF;
    shipped += li.linestatus[r] == kF;
  }
  ord.total[o] = total;
  ord.status[o] = shipped == lines ? kF : shipped == 0 ? kO : kP;
  return lines;
}

// Exclusive prefix sums of the line counts of each block of orders; back() = rows.
std::vector<uint64_t> block_row_offsets(const TableJob& job, uint64_t blocks) {
  const uint64_t orders = job.counts.orders;
  std::vector<uint64_t> start(blocks + 1, 0);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t b = 0; b < blocks; b++) {
    uint64_t lines = 0;
    ColumnStream count = stream_at(Column::kOrderLines, job.seed, b * kOrdersPerBlock);
    for (uint64_t o = b * kOrdersPerBlock; o < std::min(orders, (b + 1) * kOrdersPerBlock); o++, count.next_row())
      lines += uint64_t(count.uniform(1, 7));
    start[b + 1] = lines;
  }
  for (uint64_t b = 0; b < blocks; b++) start[b + 1] += start[b];
  return start;
}

std::vector<std::string> instructions() {
  std::vector<std::string> out;
  for (int i = 0; i < lists::kShipInstructions.size(); i++) out.emplace_back(lists::kShipInstructions.value(i));
  return out;
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
       ssb::varchar_from_domain("l_shipinstruct", instructions(), std::move(a.shipinstruct), threads),
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
    OrderStreams s(job.seed, b * kOrdersPerBlock);
    for (uint64_t o = b * kOrdersPerBlock; o < std::min(orders, (b + 1) * kOrdersPerBlock); o++, s.next_row()) {
      row += uint64_t(generate_order(job, o, row, s, ord, li));
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
