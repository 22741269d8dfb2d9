// The RT scan's rank encoding against brute force: ranks are a permutation ordered by
// value, each value's copies hold one contiguous interval, NULL rows come last in row
// order, the mapping table rewrites constants to the exact rank counts (dense tables of
// distinct values included), and ties are spread by tie_order, not by row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "access/rt_scan/rank_encoding.h"
#include "access/rt_scan/sieve.h"

namespace raydb::access::rt_scan {
namespace {

struct Data {
  std::vector<int64_t> values;
  std::vector<uint64_t> nulls;
  ScanColumn column() const { return {values, nulls}; }
};

Data make(size_t n, int64_t domain, double null_share, uint64_t seed) {
  std::mt19937_64 g(seed);
  Data d;
  d.values.resize(n);
  if (null_share > 0) d.nulls.assign((n + 63) / 64, 0);
  for (size_t i = 0; i < n; ++i) {
    d.values[i] = domain == 0 ? int64_t(i) * 7 - 1000 : int64_t(g() % uint64_t(domain)) - domain / 2;
    if (null_share > 0 && std::uniform_real_distribution<double>(0, 1)(g) < null_share) d.nulls[i >> 6] |= 1ull << (i & 63);
  }
  if (domain == 0) std::shuffle(d.values.begin(), d.values.end(), g);
  return d;
}

void check_encoding(const Data& d, uint32_t column_index) {
  const ScanColumn col = d.column();
  const ColumnEncoding e = encode_column(col, column_index, true);
  const MappingTable& t = e.table;
  const size_t n = d.values.size();
  std::vector<int64_t> valid_values;
  for (size_t i = 0; i < n; ++i)
    if (!col.is_null(i)) valid_values.push_back(d.values[i]);
  ASSERT_EQ(t.valid, valid_values.size());
  std::vector<bool> seen(n, false);
  for (size_t r = 0; r < n; ++r) {  // rows_by_rank inverts ranks; a permutation
    const uint32_t row = e.rows_by_rank[r];
    ASSERT_EQ(e.ranks[row], r);
    ASSERT_FALSE(seen[row]);
    seen[row] = true;
    if (r >= t.valid) {
      ASSERT_TRUE(col.is_null(row));
      if (r > t.valid) ASSERT_LT(e.rows_by_rank[r - 1], row);  // NULL rows in row order
    } else {
      ASSERT_FALSE(col.is_null(row));
      ASSERT_EQ(t.value_at(static_cast<uint32_t>(r)), d.values[row]);
      if (r > 0) ASSERT_LE(d.values[e.rows_by_rank[r - 1]], d.values[row]);
    }
  }
  std::vector<int64_t> sorted = valid_values;
  std::sort(sorted.begin(), sorted.end());
  const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  EXPECT_EQ(t.dense(), distinct);
  for (int64_t v : {INT64_MIN, int64_t(-1001), int64_t(-3), int64_t(0), int64_t(5), int64_t(700000), INT64_MAX}) {
    const auto lo = std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin();
    const auto hi = std::upper_bound(sorted.begin(), sorted.end(), v) - sorted.begin();
    EXPECT_EQ(t.lower(v), lo) << v;
    EXPECT_EQ(t.upper(v), hi) << v;
  }
  // Sieving borders from a dense table equal those from the same table with `first` spelt out.
  MappingTable spelt = t;
  if (spelt.dense()) {
    for (uint32_t i = 0; i <= spelt.values.size(); ++i) spelt.first.push_back(i);
    for (uint32_t bins : {1u, 7u, 128u}) EXPECT_EQ(sieve_borders(t, bins).x, sieve_borders(spelt, bins).x);
  }
}

// The estimate's memory terms (ScanEstimate): the share of k-row blocks holding one of
// a fraction r of scattered rows is 0 at r = 0, 1 at r = 1, rises with r, stays below
// k r and, for few rows, is k r to first order (one block per row).
TEST(RtScanEncoding, TouchedShareLimitsAndShape) {
  for (double k : {8.0, 32.0, 256.0}) {
    EXPECT_EQ(touched_share(0, k), 0);
    EXPECT_EQ(touched_share(1, k), 1);
    EXPECT_EQ(touched_share(-0.5, k), 0);
    EXPECT_EQ(touched_share(2, k), 1);
    double last = 0;
    for (int i = 1; i <= 1000; ++i) {
      const double r = i / 1000.0, s = touched_share(r, k);
      if (s < 1 - 1e-9) EXPECT_GT(s, last) << k << " " << r;  // within rounding of 1 near r = 1
      EXPECT_GE(s, last) << k << " " << r;
      EXPECT_LE(s, std::min(1.0, k * r) + 1e-12) << k << " " << r;
      EXPECT_NEAR(s, 1 - std::pow(1 - r, k), 1e-12) << k << " " << r;
      last = s;
    }
    EXPECT_NEAR(touched_share(1e-12, k) / 1e-12, k, 1e-6 * k);
  }
  EXPECT_NEAR(touched_share(0.01, 32), 0.275, 0.001);  // a second 1% column costs 0.28 of a pass
}

TEST(RtScanEncoding, RanksTablesAndNullsMatchBruteForce) {
  check_encoding(make(5000, 0, 0, 1), 0);       // distinct values: a dense table
  check_encoding(make(5000, 0, 0.2, 2), 1);     // distinct, with NULLs
  check_encoding(make(5000, 37, 0, 3), 2);      // many duplicates
  check_encoding(make(5000, 37, 0.3, 4), 0);    // duplicates and NULLs
  check_encoding(make(5000, 1, 0, 5), 1);       // all equal
  check_encoding(make(1, 0, 0, 6), 0);          // one row
  check_encoding(make(64, 3, 1.0, 7), 0);       // all NULL
}

TEST(RtScanEncoding, TiesAreSpreadPerColumn) {
  // Two all-equal columns: ordering ties by row would give every row the same rank in
  // both (a diagonal line of cells); tie_order must decorrelate them.
  const size_t n = 20000;
  const Data d = make(n, 1, 0, 8);
  const ColumnEncoding a = encode_column(d.column(), 0, false), b = encode_column(d.column(), 1, false);
  size_t same = 0, near = 0;
  for (size_t i = 0; i < n; ++i) {
    same += a.ranks[i] == b.ranks[i];
    near += (a.ranks[i] > b.ranks[i] ? a.ranks[i] - b.ranks[i] : b.ranks[i] - a.ranks[i]) < n / 100;
  }
  EXPECT_LT(same, n / 100);
  EXPECT_LT(near, n / 20);  // independent ranks: about 2% lie within n/100 of each other
}

}  // namespace
}  // namespace raydb::access::rt_scan
