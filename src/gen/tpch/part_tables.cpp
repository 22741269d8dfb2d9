// part and partsupp (clause 4.2.3), drawn as the TPC-H kit's dbgen draws them.
#include <fmt/format.h>

#include <array>
#include <numeric>

#include "gen/ssb/domains.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace d = ssb::domains;  // colors, types and containers: dbgen's lists in dbgen's order

namespace {

constexpr uint64_t kRowsPerBlock = 1024;  // rows (parts) per parallel block

// P_NAME: dbgen shuffles the 92 colors (a forward Fisher-Yates, one draw per
// position) and joins the first five; those five need only the first five draws.
std::string part_name(ColumnStream& s) {
  std::array<int, d::kColors> order;
  std::iota(order.begin(), order.end(), 0);
  std::string name;
  for (int i = 0; i < 5; i++) {
    std::swap(order[size_t(i)], order[size_t(s.uniform(i, d::kColors - 1))]);
    if (i) name += ' ';
    name += d::kColorNames[size_t(order[size_t(i)])];
  }
  return name;
}

struct PartStreams {
  PartStreams(uint64_t seed, uint64_t row)
      : name(stream_at(Column::kPartName, seed, row)), mfgr(stream_at(Column::kPartMfgr, seed, row)),
        brand(stream_at(Column::kPartBrand, seed, row)), type(stream_at(Column::kPartType, seed, row)),
        size(stream_at(Column::kPartSize, seed, row)), container(stream_at(Column::kPartContainer, seed, row)),
        comment(stream_at(Column::kPartComment, seed, row)) {}
  void next_row() {
    for (ColumnStream* s : {&name, &mfgr, &brand, &type, &size, &container, &comment}) s->next_row();
  }
  ColumnStream name, mfgr, brand, type, size, container, comment;
};

}  // namespace

TablePtr generate_part(const TableJob& job) {
  const uint64_t rows = job.counts.part;
  std::vector<int32_t> key(rows), size(rows);
  std::vector<int64_t> price(rows);
  std::vector<std::string> name(rows), mfgr(rows), brand(rows), type(rows), container(rows), comment(rows);
  for_each_block(rows, kRowsPerBlock, job.threads, [&](uint64_t begin, uint64_t end) {
    PartStreams s(job.seed, begin);
    for (uint64_t r = begin; r < end; r++, s.next_row()) {
      const int64_t k = int64_t(r) + 1;
      key[r] = int32_t(k);
      name[r] = part_name(s.name);
      const int64_t m = s.mfgr.uniform(1, 5);
      mfgr[r] = fmt::format("Manufacturer#{}", m);
      brand[r] = fmt::format("Brand#{}", m * 10 + s.brand.uniform(1, 5));
      type[r] = d::type_name(int(s.type.uniform(0, d::kTypes - 1)));
      size[r] = int32_t(s.size.uniform(1, 50));
      container[r] = d::container_name(int(s.container.uniform(0, d::kContainers - 1)));
      price[r] = retail_price_cents(k);
      comment[r] = job.text->text(s.comment, 5, 22);
    }
  });
  return assemble_table("part", {int_column("p_partkey", key), text_column("p_name", name),
                                 text_column("p_mfgr", mfgr), text_column("p_brand", brand),
                                 text_column("p_type", type), int_column("p_size", size),
                                 text_column("p_container", container), money_column("p_retailprice", price),
                                 text_column("p_comment", comment)});
}

// Four rows per part: the streams advance once per part, drawing for all four.
TablePtr generate_partsupp(const TableJob& job) {
  const uint64_t parts = job.counts.part, rows = parts * 4;
  const int64_t suppliers = int64_t(job.counts.supplier);
  std::vector<int32_t> part(rows), supp(rows), avail(rows);
  std::vector<int64_t> cost(rows);
  std::vector<std::string> comment(rows);
  for_each_block(parts, kRowsPerBlock, job.threads, [&](uint64_t begin, uint64_t end) {
    ColumnStream qty = stream_at(Column::kPsAvailQty, job.seed, begin);
    ColumnStream scost = stream_at(Column::kPsSupplyCost, job.seed, begin);
    ColumnStream text = stream_at(Column::kPsComment, job.seed, begin);
    for (uint64_t p = begin; p < end; p++) {
      const int64_t k = int64_t(p) + 1;
      for (int i = 0; i < 4; i++) {
        const uint64_t r = p * 4 + uint64_t(i);
        part[r] = int32_t(k);
        supp[r] = part_supplier(k, i, suppliers);
        avail[r] = int32_t(qty.uniform(1, 9999));
        cost[r] = scost.uniform(100, 100000);
        comment[r] = job.text->text(text, 49, 198);
      }
      qty.next_row();
      scost.next_row();
      text.next_row();
    }
  });
  return assemble_table("partsupp", {int_column("ps_partkey", part), int_column("ps_suppkey", supp),
                                     int_column("ps_availqty", avail), money_column("ps_supplycost", cost),
                                     text_column("ps_comment", comment)});
}

}  // namespace raydb::tpch
