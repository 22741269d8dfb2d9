// Selectivities of the SSB predicates, by brute force over generated columns,
// against what the specification and dbgen's distributions imply.
#include <gtest/gtest.h>

#include <cmath>

#include "gen/ssb_oracle.h"

namespace raydb::ssb {
namespace {

using oracle::column;
using oracle::ints;
using oracle::str;
using oracle::table;

const std::vector<TablePtr>& db() { return oracle::cached(0.1); }

// Orders are dated uniformly over 2,406 days: 1992-01-01 .. 1998-08-02.
constexpr double kOrderDays = 2406;

// Fraction of the rows of `t` for which pred holds.
template <typename Pred>
double fraction(const Table& t, Pred pred) {
  uint64_t n = 0;
  for (uint64_t r = 0; r < t.row_count(); r++) n += pred(r);
  return double(n) / double(t.row_count());
}

TEST(SsbSelectivity, LineorderColumns) {
  const Table& lo = table(db(), "lineorder");
  const int32_t *od = ints(lo, "lo_orderdate"), *disc = ints(lo, "lo_discount"), *qty = ints(lo, "lo_quantity");
  // Rows of one order share a date, so date fractions vary more than per-row ones.
  EXPECT_NEAR(fraction(lo, [&](auto r) { return od[r] / 10000 == 1993; }), 365 / kOrderDays, 0.004);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return od[r] / 10000 == 1996; }), 366 / kOrderDays, 0.004);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return od[r] / 10000 == 1998; }), 214 / kOrderDays, 0.004);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return od[r] / 100 == 199401; }), 31 / kOrderDays, 0.0015);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return disc[r] >= 1 && disc[r] <= 3; }), 3.0 / 11, 0.003);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return qty[r] < 25; }), 24.0 / 50, 0.003);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return qty[r] >= 26 && qty[r] <= 35; }), 10.0 / 50, 0.003);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return str(lo, "lo_shipmode", r) == "AIR"; }), 1.0 / 7, 0.003);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return str(lo, "lo_orderpriority", r) == "1-URGENT"; }), 1.0 / 5, 0.004);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return ints(lo, "lo_tax")[r] == 0; }), 1.0 / 9, 0.003);
}

TEST(SsbSelectivity, Dimensions) {
  const Table &p = table(db(), "part"), &c = table(db(), "customer"), &s = table(db(), "supplier");
  EXPECT_NEAR(fraction(p, [&](auto r) { return str(p, "p_category", r) == "MFGR#12"; }), 1.0 / 25, 0.005);
  EXPECT_NEAR(fraction(p, [&](auto r) { return str(p, "p_mfgr", r) <= "MFGR#2"; }), 2.0 / 5, 0.01);
  EXPECT_NEAR(fraction(p, [&](auto r) { return str(p, "p_brand1", r) == "MFGR#2239"; }), 1.0 / 1000, 0.0008);
  EXPECT_NEAR(fraction(c, [&](auto r) { return str(c, "c_region", r) == "AMERICA"; }), 1.0 / 5, 0.025);
  EXPECT_NEAR(fraction(c, [&](auto r) { return str(c, "c_nation", r) == "UNITED STATES"; }), 1.0 / 25, 0.012);
  // Only 200 suppliers at SF 0.1: a wide band.
  EXPECT_NEAR(fraction(s, [&](auto r) { return str(s, "s_region", r) == "AMERICA"; }), 1.0 / 5, 0.09);
  EXPECT_NEAR(fraction(c, [&](auto r) { return str(c, "c_city", r) == "UNITED KI1"; }), 1.0 / 250, 0.004);
}

TEST(SsbSelectivity, ForeignKeysAreUniform) {
  // A lineorder row references a supplier of region R with the supplier table's own
  // fraction: suppkeys are uniform and independent of everything else.
  const Table &lo = table(db(), "lineorder"), &s = table(db(), "supplier"), &p = table(db(), "part");
  std::vector<char> s_america(s.row_count() + 1), p_12(p.row_count() + 1);
  for (uint64_t r = 0; r < s.row_count(); r++) s_america[r + 1] = str(s, "s_region", r) == "AMERICA";
  for (uint64_t r = 0; r < p.row_count(); r++) p_12[r + 1] = str(p, "p_category", r) == "MFGR#12";
  double f_supp = fraction(s, [&](auto r) { return s_america[r + 1]; });
  double f_part = fraction(p, [&](auto r) { return p_12[r + 1]; });
  const int32_t *sk = ints(lo, "lo_suppkey"), *pk = ints(lo, "lo_partkey");
  EXPECT_NEAR(fraction(lo, [&](auto r) { return s_america[size_t(sk[r])]; }), f_supp, 0.004);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return p_12[size_t(pk[r])]; }), f_part, 0.002);
  EXPECT_NEAR(fraction(lo, [&](auto r) { return s_america[size_t(sk[r])] && p_12[size_t(pk[r])]; }), f_supp * f_part,
              0.001);
}

TEST(SsbSelectivity, CustomersWithOrdersFollowDbgen) {
  // dbgen moves keys divisible by 3 to the next key: keys = 1 (mod 3) get twice the
  // orders of keys = 2 (mod 3), and keys = 0 (mod 3) none.
  const Table& lo = table(db(), "lineorder");
  const int32_t* ck = ints(lo, "lo_custkey");
  uint64_t by_residue[3] = {0, 0, 0};
  for (uint64_t r = 0; r < lo.row_count(); r++) by_residue[ck[r] % 3]++;
  EXPECT_EQ(by_residue[0], 0u);
  EXPECT_NEAR(double(by_residue[1]) / double(by_residue[2]), 2.0, 0.05);
}

TEST(SsbSelectivity, Flight1QualifyingRows) {
  const Table& lo = table(db(), "lineorder");
  const double n = double(lo.row_count());
  // q1.1: d_year = 1993, discount 1..3, quantity < 25.
  EXPECT_NEAR(double(oracle::run_query(db(), "q1.1").rows) / n, 365 / kOrderDays * 3 / 11 * 24 / 50, 0.0015);
  // q1.2: one month, discount 4..6, quantity 26..35.
  EXPECT_NEAR(double(oracle::run_query(db(), "q1.2").rows) / n, 31 / kOrderDays * 3 / 11 * 10 / 50, 0.0003);
  // q1.3: one week of 1994, discount 5..7, quantity 26..35.
  EXPECT_NEAR(double(oracle::run_query(db(), "q1.3").rows) / n, 7 / kOrderDays * 3 / 11 * 10 / 50, 0.0001);
}

TEST(SsbSelectivity, GroupCountsWithFixedStructure) {
  // At SF 0.1 every group of these queries is populated, as in dbgen's data.
  std::map<std::string, size_t> expected = {{"q2.1", 280}, {"q2.2", 56}, {"q2.3", 7},
                                            {"q3.1", 150}, {"q4.1", 35}, {"q4.2", 100}};
  for (auto& [q, groups] : expected) EXPECT_EQ(oracle::run_query(db(), q).groups.size(), groups) << q;
}

}  // namespace
}  // namespace raydb::ssb
