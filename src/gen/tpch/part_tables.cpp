// part and partsupp (clause 4.2.3).
#include <fmt/format.h>

#include <algorithm>

#include "gen/ssb/domains.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace d = ssb::domains;  // colors, types and containers are the same lists in SSB

namespace {

// Five distinct colors separated by spaces (P_NAME).
std::string part_name(RowRandom& rng) {
  int picked[5];
  std::string s;
  for (int i = 0; i < 5; i++) {
    int c;
    do c = int(rng.uniform(0, d::kColors - 1));
    while (std::find(picked, picked + i, c) != picked + i);
    picked[i] = c;
    if (i) s += ' ';
    s += d::kColorNames[size_t(c)];
  }
  return s;
}

}  // namespace

TablePtr generate_part(const TableJob& job) {
  const uint64_t rows = job.counts.part;
  std::vector<int32_t> key(rows), size(rows);
  std::vector<int64_t> price(rows);
  std::vector<std::string> name(rows), mfgr(rows), brand(rows), type(rows), container(rows), comment(rows);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t r = 0; r < rows; r++) {
    RowRandom rng(job.seed, Stream::kPart, r);
    const int64_t k = int64_t(r) + 1;
    key[r] = int32_t(k);
    name[r] = part_name(rng);
    const int m = int(rng.uniform(1, 5));
    mfgr[r] = fmt::format("Manufacturer#{}", m);
    brand[r] = fmt::format("Brand#{}{}", m, rng.uniform(1, 5));
    type[r] = d::type_name(int(rng.uniform(0, d::kTypes - 1)));
    size[r] = int32_t(rng.uniform(1, 50));
    container[r] = d::container_name(int(rng.uniform(0, d::kContainers - 1)));
    price[r] = retail_price_cents(k);
    comment[r] = job.text->text(rng, 5, 22);
  }
  return assemble_table("part", {int_column("p_partkey", key), text_column("p_name", name),
                                 text_column("p_mfgr", mfgr), text_column("p_brand", brand),
                                 text_column("p_type", type), int_column("p_size", size),
                                 text_column("p_container", container), money_column("p_retailprice", price),
                                 text_column("p_comment", comment)});
}

TablePtr generate_partsupp(const TableJob& job) {
  const uint64_t rows = job.counts.part * 4;
  const int64_t suppliers = int64_t(job.counts.supplier);
  std::vector<int32_t> part(rows), supp(rows), avail(rows);
  std::vector<int64_t> cost(rows);
  std::vector<std::string> comment(rows);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t r = 0; r < rows; r++) {
    RowRandom rng(job.seed, Stream::kPartSupp, r);
    const int64_t k = int64_t(r / 4) + 1;
    part[r] = int32_t(k);
    supp[r] = part_supplier(k, int(r % 4), suppliers);
    avail[r] = int32_t(rng.uniform(1, 9999));
    cost[r] = rng.uniform(100, 100000);
    comment[r] = job.text->text(rng, 49, 198);
  }
  return assemble_table("partsupp", {int_column("ps_partkey", part), int_column("ps_suppkey", supp),
                                     int_column("ps_availqty", avail), money_column("ps_supplycost", cost),
                                     text_column("ps_comment", comment)});
}

}  // namespace raydb::tpch
