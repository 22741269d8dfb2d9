#pragma once
// raydb's own TPC-H data generator. It follows the TPC-H specification (v3.0.1,
// clauses 4.2.2-4.2.3): the schema, key ranges, value domains, the text grammar of
// the comments, p_name from the 92 colors, phone numbers, sparse order keys, the
// dates of orders and lineitems, and the o_orderstatus / o_totalprice derivations.
// Its random streams are its own, not dbgen's: the data is spec-conforming but not
// byte-equal to the official dbgen, so query answers differ from the kit's
// answers/q*.out (to load dbgen's own data, use `raydb load tpch`).
// Output is deterministic for (scale factor, seed), whatever the thread count.
#include <cstdint>
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb::tpch {

struct GenOptions {
  double scale_factor = 1.0;  // > 0; fractions such as 0.01 work
  uint64_t seed = 19920101;
  int threads = 0;            // 0: OpenMP's default
  bool progress = true;       // progress lines on stderr (common/progress.h)
};

struct RowCounts {
  uint64_t part = 0;      // 200,000 x SF (partsupp: 4 per part)
  uint64_t supplier = 0;  // 10,000 x SF
  uint64_t customer = 0;  // 150,000 x SF
  uint64_t orders = 0;    // 1,500,000 x SF (lineitem: 1..7 per order)
  uint64_t clerks = 0;    // 1,000 x SF
  uint64_t comment_marks = 0;  // 5 x SF suppliers with "Customer%Complaints", as many with "...Recommends"
};

// Table sizes at `scale_factor` (each at least 1, fractions truncated as dbgen does).
// Throws Error(kInvalidInput) when SF is not a positive finite number or so large
// that order keys would not fit an INTEGER.
RowCounts row_counts(double scale_factor);

// The eight tables in tpch::schema() order: lineitem, orders, customer, part,
// partsupp, supplier, nation, region.
std::vector<TablePtr> generate(const GenOptions& options);

}  // namespace raydb::tpch
