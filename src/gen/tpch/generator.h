#pragma once
// raydb's TPC-H data generator. It follows the TPC-H specification (v3.0.1,
// clauses 4.2.2-4.2.3) and generates the same rows as the TPC-H kit's dbgen: the
// same random streams (Park-Miller, one per column, seeded as dbgen seeds them),
// the same number of draws per row, the same value lists and weights, and the same
// 300 MiB text pool from which comments are cut. So the query answers at SF 1 are
// the kit's answers/q*.out (docs/tpch-answers.md). Rows are generated in parallel
// blocks, each stream skipped to its block's first row by modular exponentiation;
// the output does not depend on the thread count.
#include <cstdint>
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb::tpch {

struct GenOptions {
  double scale_factor = 1.0;  // > 0; fractions such as 0.01 work
  // 0: dbgen's seeds, the kit's data. Any other value derives every stream's first
  // value from (seed, column): other data with the same distributions.
  uint64_t seed = 0;
  int threads = 0;            // 0: OpenMP's default
  bool progress = true;       // progress lines on stderr (common/progress.h)
};

struct RowCounts {
  uint64_t part = 0;      // 200,000 x SF (partsupp: 4 per part)
  uint64_t supplier = 0;  // 10,000 x SF
  uint64_t customer = 0;  // 150,000 x SF
  uint64_t orders = 0;    // 1,500,000 x SF (lineitem: 1..7 per order)
  uint64_t clerks = 0;    // 1,000 x SF, at least 1,000 (o_clerk's range)
};

// Table sizes at `scale_factor`, as dbgen computes them: below SF 1 each base count
// times int(1000 x SF) / 1000, truncated, at least 1; from SF 1 up base x SF,
// truncated (dbgen itself truncates such an SF to an integer).
// Throws Error(kInvalidInput) when SF is not a positive finite number or so large
// that order keys would not fit an INTEGER.
RowCounts row_counts(double scale_factor);

// The eight tables in tpch::schema() order: lineitem, orders, customer, part,
// partsupp, supplier, nation, region.
std::vector<TablePtr> generate(const GenOptions& options);

}  // namespace raydb::tpch
