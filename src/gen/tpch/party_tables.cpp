// nation, region, supplier and customer (clause 4.2.3), drawn as the TPC-H kit's
// dbgen draws them.
#include <fmt/format.h>

#include "gen/ssb/domains.h"
#include "gen/tpch/tables.h"

namespace raydb::tpch {

namespace d = ssb::domains;  // the TPC nations, regions and market segments, in dbgen's order

namespace {

constexpr uint64_t kRowsPerBlock = 1024;  // rows per parallel block

// nation and region: names from the lists, a comment of 28..115 characters each.
TablePtr code_table(const TableJob& job, bool nations) {
  const int rows = nations ? d::kNations : d::kRegions;
  ColumnStream s = stream_at(nations ? Column::kNationComment : Column::kRegionComment, job.seed, 0);
  std::vector<int32_t> key, region;
  std::vector<std::string> name, comment;
  for (int r = 0; r < rows; r++, s.next_row()) {
    key.push_back(r);
    name.emplace_back(nations ? d::kNationNames[size_t(r)] : d::kRegionNames[size_t(r)]);
    if (nations) region.push_back(d::kNationRegion[size_t(r)]);
    comment.emplace_back(job.text->text(s, 28, 115));
  }
  if (!nations)
    return assemble_table("region", {int_column("r_regionkey", key), text_column("r_name", name),
                                     text_column("r_comment", comment)});
  return assemble_table("nation", {int_column("n_nationkey", key), text_column("n_name", name),
                                   int_column("n_regionkey", region), text_column("n_comment", comment)});
}

// The streams of a supplier or customer row: address, nation, phone, balance, comment.
struct PartyStreams {
  PartyStreams(uint64_t seed, uint64_t row, Column first)
      : address(stream_at(first, seed, row)), nation(stream_at(Column(int(first) + 1), seed, row)),
        phone(stream_at(Column(int(first) + 2), seed, row)), acctbal(stream_at(Column(int(first) + 3), seed, row)) {}
  void next_row() {
    for (ColumnStream* s : {&address, &nation, &phone, &acctbal}) s->next_row();
  }
  ColumnStream address, nation, phone, acctbal;
};

// S_COMMENT of 10 suppliers in 10,000 (clause 4.2.3): "Customer " at a random
// offset and, a random gap later, "Complaints" (type < 50 of [0, 100]) or
// "Recommends", written over the comment. dbgen draws all four values every row.
struct BbbStreams {
  BbbStreams(uint64_t seed, uint64_t row)
      : junk(stream_at(Column::kSuppBbbJunk, seed, row)), type(stream_at(Column::kSuppBbbType, seed, row)),
        chosen(stream_at(Column::kSuppBbbComment, seed, row)), offset(stream_at(Column::kSuppBbbOffset, seed, row)) {}
  void next_row() {
    for (ColumnStream* s : {&junk, &type, &chosen, &offset}) s->next_row();
  }
  void mark(std::string& comment) {
    static constexpr std::string_view kBase = "Customer ";
    const int len = int(comment.size()), fixed = 19;  // "Customer " + a 10-letter word
    const bool bad_press = chosen.uniform(1, 10000) <= 10;
    const bool complaint = type.uniform(0, 100) < 50;
    const int gap = int(junk.uniform(0, len - fixed));
    const int at = int(offset.uniform(0, len - (fixed + gap)));
    if (!bad_press) return;
    comment.replace(size_t(at), kBase.size(), kBase);
    comment.replace(size_t(at) + kBase.size() + size_t(gap), 10, complaint ? "Complaints" : "Recommends");
  }
  ColumnStream junk, type, chosen, offset;
};

}  // namespace

TablePtr generate_nation(const TableJob& job) { return code_table(job, true); }
TablePtr generate_region(const TableJob& job) { return code_table(job, false); }

TablePtr generate_supplier(const TableJob& job) {
  const uint64_t rows = job.counts.supplier;
  std::vector<int32_t> key(rows), nation(rows);
  std::vector<int64_t> acctbal(rows);
  std::vector<std::string> name(rows), address(rows), phone(rows), comment(rows);
  for_each_block(rows, kRowsPerBlock, job.threads, [&](uint64_t begin, uint64_t end) {
    PartyStreams s(job.seed, begin, Column::kSuppAddress);
    ColumnStream text = stream_at(Column::kSuppComment, job.seed, begin);
    BbbStreams bbb(job.seed, begin);
    for (uint64_t r = begin; r < end; r++, s.next_row(), text.next_row(), bbb.next_row()) {
      key[r] = int32_t(r + 1);
      name[r] = fmt::format("Supplier#{:09d}", r + 1);
      address[r] = random_vstring(s.address, 10, 40);
      nation[r] = int32_t(s.nation.uniform(0, d::kNations - 1));
      phone[r] = random_phone(s.phone, nation[r]);
      acctbal[r] = s.acctbal.uniform(-99999, 999999);
      comment[r] = job.text->text(text, 25, 100);
      bbb.mark(comment[r]);
    }
  });
  return assemble_table("supplier", {int_column("s_suppkey", key), text_column("s_name", name),
                                     text_column("s_address", address), int_column("s_nationkey", nation),
                                     text_column("s_phone", phone), money_column("s_acctbal", acctbal),
                                     text_column("s_comment", comment)});
}

TablePtr generate_customer(const TableJob& job) {
  const uint64_t rows = job.counts.customer;
  std::vector<int32_t> key(rows), nation(rows);
  std::vector<int64_t> acctbal(rows);
  std::vector<std::string> name(rows), address(rows), phone(rows), segment(rows), comment(rows);
  for_each_block(rows, kRowsPerBlock, job.threads, [&](uint64_t begin, uint64_t end) {
    PartyStreams s(job.seed, begin, Column::kCustAddress);
    ColumnStream seg = stream_at(Column::kCustSegment, job.seed, begin);
    ColumnStream text = stream_at(Column::kCustComment, job.seed, begin);
    for (uint64_t r = begin; r < end; r++, s.next_row(), seg.next_row(), text.next_row()) {
      key[r] = int32_t(r + 1);
      name[r] = fmt::format("Customer#{:09d}", r + 1);
      address[r] = random_vstring(s.address, 10, 40);
      nation[r] = int32_t(s.nation.uniform(0, d::kNations - 1));
      phone[r] = random_phone(s.phone, nation[r]);
      acctbal[r] = s.acctbal.uniform(-99999, 999999);
      segment[r] = d::kMktSegments[size_t(seg.uniform(0, 4))];
      comment[r] = job.text->text(text, 29, 116);
    }
  });
  return assemble_table("customer", {int_column("c_custkey", key), text_column("c_name", name),
                                     text_column("c_address", address), int_column("c_nationkey", nation),
                                     text_column("c_phone", phone), money_column("c_acctbal", acctbal),
                                     text_column("c_mktsegment", segment), text_column("c_comment", comment)});
}

}  // namespace raydb::tpch
