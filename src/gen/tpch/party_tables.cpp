// nation, region, supplier and customer (clause 4.2.3).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "gen/ssb/domains.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace d = ssb::domains;  // the TPC nations, regions and market segments

TablePtr generate_nation(const TableJob& job) {
  std::vector<int32_t> key, region;
  std::vector<std::string> name, comment;
  for (int n = 0; n < d::kNations; n++) {
    RowRandom rng(job.seed, Stream::kNation, uint64_t(n));
    key.push_back(n);
    name.emplace_back(d::kNationNames[size_t(n)]);
    region.push_back(d::kNationRegion[size_t(n)]);
    comment.push_back(job.text->text(rng, 31, 114));
  }
  return assemble_table("nation", {int_column("n_nationkey", key), text_column("n_name", name),
                                   int_column("n_regionkey", region), text_column("n_comment", comment)});
}

TablePtr generate_region(const TableJob& job) {
  std::vector<int32_t> key;
  std::vector<std::string> name, comment;
  for (int r = 0; r < d::kRegions; r++) {
    RowRandom rng(job.seed, Stream::kRegion, uint64_t(r));
    key.push_back(r);
    name.emplace_back(d::kRegionNames[size_t(r)]);
    comment.push_back(job.text->text(rng, 31, 115));
  }
  return assemble_table("region",
                        {int_column("r_regionkey", key), text_column("r_name", name), text_column("r_comment", comment)});
}

namespace {

// Which suppliers carry "Customer ... Complaints" (1) or "Customer ... Recommends" (2)
// in their comment: comment_marks distinct suppliers each, by a seeded shuffle.
std::vector<uint8_t> supplier_marks(const TableJob& job) {
  const uint64_t n = job.counts.supplier, marks = std::min(job.counts.comment_marks, n / 2);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  RowRandom rng(job.seed, Stream::kSupplierMarks, 0);
  std::vector<uint8_t> kind(n, 0);
  for (uint64_t i = 0; i < 2 * marks; i++) {  // partial Fisher-Yates
    std::swap(order[i], order[size_t(rng.uniform(int64_t(i), int64_t(n) - 1))]);
    kind[order[i]] = i < marks ? 1 : 2;
  }
  return kind;
}

// Writes "Customer" and `tail` into `comment` at random positions, with random text
// between them, keeping its length (clause 4.2.3, S_COMMENT).
void mark_comment(RowRandom& rng, std::string& comment, const char* tail) {
  const int len = int(comment.size()), fixed = 8 + 10;
  const int gap = int(rng.uniform(0, len - fixed));
  const int start = int(rng.uniform(0, len - fixed - gap));
  comment.replace(size_t(start), 8, "Customer");
  comment.replace(size_t(start + 8 + gap), 10, tail);
}

}  // namespace

TablePtr generate_supplier(const TableJob& job) {
  const uint64_t rows = job.counts.supplier;
  const std::vector<uint8_t> marks = supplier_marks(job);
  std::vector<int32_t> key(rows), nation(rows);
  std::vector<int64_t> acctbal(rows);
  std::vector<std::string> name(rows), address(rows), phone(rows), comment(rows);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t r = 0; r < rows; r++) {
    RowRandom rng(job.seed, Stream::kSupplier, r);
    key[r] = int32_t(r + 1);
    name[r] = fmt::format("Supplier#{:09d}", r + 1);
    address[r] = random_vstring(rng, 10, 40);
    nation[r] = int32_t(rng.uniform(0, d::kNations - 1));
    phone[r] = random_phone(rng, nation[r]);
    acctbal[r] = rng.uniform(-99999, 999999);
    comment[r] = job.text->text(rng, 25, 100);
    if (marks[r]) mark_comment(rng, comment[r], marks[r] == 1 ? "Complaints" : "Recommends");
  }
  return assemble_table("supplier", {int_column("s_suppkey", key), text_column("s_name", name),
                                     text_column("s_address", address), int_column("s_nationkey", nation),
                                     text_column("s_phone", phone), money_column("s_acctbal", acctbal),
                                     text_column("s_comment", comment)});
}

TablePtr generate_customer(const TableJob& job) {
  static const std::array<std::string_view, 5> kSegments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY",
                                                            "HOUSEHOLD"};
  const uint64_t rows = job.counts.customer;
  std::vector<int32_t> key(rows), nation(rows);
  std::vector<int64_t> acctbal(rows);
  std::vector<std::string> name(rows), address(rows), phone(rows), segment(rows), comment(rows);
#pragma omp parallel for schedule(static) num_threads(job.threads)
  for (uint64_t r = 0; r < rows; r++) {
    RowRandom rng(job.seed, Stream::kCustomer, r);
    key[r] = int32_t(r + 1);
    name[r] = fmt::format("Customer#{:09d}", r + 1);
    address[r] = random_vstring(rng, 10, 40);
    nation[r] = int32_t(rng.uniform(0, d::kNations - 1));
    phone[r] = random_phone(rng, nation[r]);
    acctbal[r] = rng.uniform(-99999, 999999);
    segment[r] = kSegments[size_t(rng.uniform(0, 4))];
    comment[r] = job.text->text(rng, 29, 116);
  }
  return assemble_table("customer", {int_column("c_custkey", key), text_column("c_name", name),
                                     text_column("c_address", address), int_column("c_nationkey", nation),
                                     text_column("c_phone", phone), money_column("c_acctbal", acctbal),
                                     text_column("c_mktsegment", segment), text_column("c_comment", comment)});
}

}  // namespace raydb::tpch
