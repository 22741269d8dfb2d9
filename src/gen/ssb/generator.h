#pragma once
// raydb's own Star Schema Benchmark data generator. It follows the SSB
// specification (O'Neil, O'Neil, Chen, Revilak) and the value domains, formulas and
// distributions of the reference dbgen, with its own random streams: the values
// differ from dbgen's, the selectivities and group counts of the 13 queries do not.
// Output is deterministic for (scale factor, seed), whatever the thread count.
#include <cstdint>
#include <string>
#include <vector>

#include "storage/table.h"

namespace raydb::ssb {

struct GenOptions {
  double scale_factor = 1.0;  // > 0; fractions such as 0.01 work
  uint64_t seed = 19920101;
  int threads = 0;            // 0: OpenMP's default
  bool progress = true;       // progress lines on stderr (common/progress.h)
};

struct RowCounts {
  uint64_t customer = 0;
  uint64_t supplier = 0;
  uint64_t part = 0;
  uint64_t date = 0;
  uint64_t orders = 0;  // lineorder has 1..7 rows per order, about 4 x orders
};

// Table sizes at `scale_factor`: customer 30,000 x SF, supplier 2,000 x SF,
// orders 1,500,000 x SF (each at least 1); part 200,000 x (1 + floor(log2 SF)) for
// SF >= 1 and 200,000 x SF below (as dbgen scales every table for SF < 1); date 2,556.
// Throws Error(kInvalidInput) when SF is not a positive finite number or so large
// that order keys would not fit an INTEGER.
RowCounts row_counts(double scale_factor);

// The five tables in ssb::schema() order: lineorder, customer, supplier, part, date.
std::vector<TablePtr> generate(const GenOptions& options);

// Writes <dir>/<table>.tbl for each table in dbgen's format: fields separated and
// terminated by '|', one row per line. Creates `dir` if needed. Formats in
// parallel, writes sequentially; throws Error(kIO) when a file cannot be written.
void write_tbl(const std::vector<TablePtr>& tables, const std::string& dir, int threads = 0);

}  // namespace raydb::ssb
