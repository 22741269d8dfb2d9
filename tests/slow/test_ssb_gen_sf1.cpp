// SSB at SF 1: group counts and flight-1 sums of the 13 queries, computed by brute
// force over the generated columns, against dbgen's reference answers
// (shared/ssb/README.md) and the expectations the specification implies.
#include <gtest/gtest.h>

#include <cstdio>

#include "gen/ssb_oracle.h"

namespace raydb::ssb {
namespace {

const std::vector<TablePtr>& sf1() { return oracle::cached(1.0); }

struct Flight1 {
  const char* query;
  double dbgen;         // dbgen's answer at SF 1
  double date_days;     // days of the date predicate
  double disc_mean;     // mean discount in the discount range
  double qty_fraction;  // fraction of quantities in range
  double qty_mean;
  double tolerance;  // relative; about 3 standard deviations of the sampling noise
};

// Expected sum: rows x P(date) x P(discount) x P(quantity) x E[price] x E[qty] x E[discount],
// with orders dated uniformly over 2,406 days, discount uniform 0..10, quantity 1..50,
// and dbgen's mean retail price 149,949.5 cents for part keys 1..200,000.
double expected_sum(const Flight1& f, uint64_t rows) {
  return double(rows) * f.date_days / 2406 * 3.0 / 11 * f.qty_fraction * 149949.5 * f.qty_mean * f.disc_mean;
}

TEST(SsbGenSf1, Flight1Sums) {
  const uint64_t rows = oracle::table(sf1(), "lineorder").row_count();
  for (const Flight1& f : {Flight1{"q1.1", 446268068091.0, 365, 2, 24.0 / 50, 12.5, 0.01},
                           Flight1{"q1.2", 98314553869.0, 31, 5, 10.0 / 50, 30.5, 0.06},
                           Flight1{"q1.3", 24994512533.0, 7, 6, 10.0 / 50, 30.5, 0.10}}) {
    const double sum = double(oracle::run_query(sf1(), f.query).groups.at(""));
    const double expect = expected_sum(f, rows);
    std::printf("%s sum %.0f, dbgen %.0f (%+.2f%%), expected %.0f (%+.2f%%)\n", f.query, sum, f.dbgen,
                100 * (sum / f.dbgen - 1), expect, 100 * (sum / expect - 1));
    EXPECT_NEAR(sum / expect, 1.0, f.tolerance) << f.query;
  }
  // q1.1 qualifies about 120,000 rows: its sum must be within 1% of dbgen's.
  EXPECT_NEAR(double(oracle::run_query(sf1(), "q1.1").groups.at("")) / 446268068091.0, 1.0, 0.01);
}

// Group counts fixed by the domains must match dbgen's exactly. q3.2, q3.4 and q4.3
// have sparse groups, some empty by chance: seeds 1..6 gave 597..600 and 1..4 groups,
// dbgen 596 and 3; q4.3 (with the specification's c_region = 'AMERICA') gives 322 with
// the default seed (about 700 without the customer filter).
TEST(SsbGenSf1, GroupCounts) {
  struct Expect {
    const char* query;
    int dbgen, min, max;
  };
  for (auto e : {Expect{"q2.1", 280, 280, 280}, {"q2.2", 56, 56, 56}, {"q2.3", 7, 7, 7}, {"q3.1", 150, 150, 150},
                 {"q3.2", 596, 588, 600}, {"q3.3", 24, 24, 24}, {"q3.4", 3, 1, 4}, {"q4.1", 35, 35, 35},
                 {"q4.2", 100, 100, 100}, {"q4.3", 322, 290, 355}}) {
    auto answer = oracle::run_query(sf1(), e.query);
    const int groups = int(answer.groups.size());
    std::printf("%s groups %d, dbgen %d (%lld rows)\n", e.query, groups, e.dbgen, (long long)answer.rows);
    EXPECT_GE(groups, e.min) << e.query;
    EXPECT_LE(groups, e.max) << e.query;
  }
}

}  // namespace
}  // namespace raydb::ssb
