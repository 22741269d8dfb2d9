#pragma once
// RT scan (access/rt_scan) against brute force: every method of an index, under every
// sieving mode, must return exactly the rows a three-valued evaluation of the
// predicate tree over the raw values accepts. Included by test_rt (host index on
// Embree) and test_rt_optix (GPU index on OptiX, label gpu): the same cases on every
// tracer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "access/rt_scan/scan_index.h"
#include "common/error.h"
#include "rt/tracer.h"

namespace raydb::rtscan_cases {

using namespace access::rt_scan;

// How a test binary makes an index; SetUp skips when it cannot run here.
struct ScanKind {
  const char* name;
  bool (*available)(std::string* why);
  std::unique_ptr<ScanIndex> (*make)(std::span<const ScanColumn>, const RtScanOptions&);
};
inline void PrintTo(const ScanKind& k, std::ostream* os) { *os << k.name; }
inline std::string scan_kind_name(const ::testing::TestParamInfo<ScanKind>& i) { return i.param.name; }

enum class Dist { kUniform, kZipf11, kZipf13, kZipf15, kNormal, kSmall, kAllEqual, kDuplicates, kExtreme };
inline const Dist kAllDists[] = {Dist::kUniform, Dist::kZipf11,    Dist::kZipf13,     Dist::kZipf15, Dist::kNormal,
                                 Dist::kSmall,   Dist::kAllEqual, Dist::kDuplicates, Dist::kExtreme};

inline std::vector<int64_t> zipf(size_t n, double s, std::mt19937_64& rng) {
  const size_t m = 100000;  // support 1..m, as numpy's zipf truncated
  std::vector<double> cdf(m);
  double acc = 0;
  for (size_t k = 1; k <= m; ++k) cdf[k - 1] = acc += 1.0 / std::pow(static_cast<double>(k), s);
  std::uniform_real_distribution<double> u(0, acc);
  std::vector<int64_t> v(n);
  for (auto& x : v) x = static_cast<int64_t>(std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin()) + 1;
  return v;
}

inline std::vector<int64_t> make_column(Dist d, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> v(n);
  switch (d) {
    case Dist::kUniform:  // a shuffled permutation with gaps, as RTScan's uniform data
      for (size_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(i) * 3 + 1;
      std::shuffle(v.begin(), v.end(), rng);
      break;
    case Dist::kZipf11: return zipf(n, 1.1, rng);
    case Dist::kZipf13: return zipf(n, 1.3, rng);
    case Dist::kZipf15: return zipf(n, 1.5, rng);
    case Dist::kNormal: {
      std::normal_distribution<double> g(2147483648.0, 1.0);
      for (auto& x : v) x = static_cast<int64_t>(std::llround(g(rng)));
      break;
    }
    case Dist::kSmall:
      for (auto& x : v) x = static_cast<int64_t>(rng() % 64);
      break;
    case Dist::kAllEqual: std::fill(v.begin(), v.end(), 42); break;
    case Dist::kDuplicates:
      for (auto& x : v) x = static_cast<int64_t>(rng() % std::max<size_t>(1, n / 10)) - 50;
      break;
    case Dist::kExtreme: {
      const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
      const int64_t picks[] = {lo, lo + 1, -1, 0, 1, hi - 1, hi};
      for (auto& x : v) x = rng() % 3 == 0 ? picks[rng() % 7] : static_cast<int64_t>(rng());
      break;
    }
  }
  return v;
}

// A table of columns with optional NULLs (bit set = NULL).
struct Table {
  std::vector<std::vector<int64_t>> values;
  std::vector<std::vector<uint64_t>> nulls;
  std::vector<ScanColumn> columns() const {
    std::vector<ScanColumn> c;
    for (size_t i = 0; i < values.size(); ++i) c.push_back({values[i], nulls[i]});
    return c;
  }
  size_t rows() const { return values.empty() ? 0 : values[0].size(); }
  bool is_null(uint32_t c, size_t r) const { return !nulls[c].empty() && ((nulls[c][r >> 6] >> (r & 63)) & 1); }
};

inline Table make_table(std::vector<Dist> dists, size_t n, uint64_t seed, std::vector<double> null_rate = {}) {
  Table t;
  std::mt19937_64 rng(seed * 7919 + 1);
  for (size_t c = 0; c < dists.size(); ++c) {
    t.values.push_back(make_column(dists[c], n, seed + c));
    std::vector<uint64_t> nl;
    const double rate = c < null_rate.size() ? null_rate[c] : 0.0;
    if (rate > 0) {
      nl.assign((n + 63) / 64, 0);
      for (size_t r = 0; r < n; ++r)
        if (std::uniform_real_distribution<double>(0, 1)(rng) < rate) nl[r >> 6] |= uint64_t{1} << (r & 63);
    }
    t.nulls.push_back(std::move(nl));
  }
  return t;
}

// SQL three-valued logic: 1 true, 0 false, -1 unknown (a NULL operand).
inline int brute(const Table& t, const ScanExpr& e, size_t r) {
  using K = ScanExpr::Kind;
  switch (e.kind) {
    case K::kTrue: return 1;
    case K::kFalse: return 0;
    case K::kNot: {
      const int v = brute(t, e.children[0], r);
      return v < 0 ? -1 : 1 - v;
    }
    case K::kAnd: {
      bool unknown = false;
      for (const ScanExpr& c : e.children) {
        const int v = brute(t, c, r);
        if (v == 0) return 0;
        unknown |= v < 0;
      }
      return unknown ? -1 : 1;
    }
    case K::kOr: {
      bool unknown = false;
      for (const ScanExpr& c : e.children) {
        const int v = brute(t, c, r);
        if (v == 1) return 1;
        unknown |= v < 0;
      }
      return unknown ? -1 : 0;
    }
    case K::kPredicate: break;
  }
  const ColumnPredicate& p = e.predicate;
  if (t.is_null(p.column, r)) return -1;
  const int64_t x = t.values[p.column][r];
  const auto& v = p.values;
  switch (p.op) {
    case CompareOp::kLess: return x < v[0];
    case CompareOp::kLessEqual: return x <= v[0];
    case CompareOp::kGreater: return x > v[0];
    case CompareOp::kGreaterEqual: return x >= v[0];
    case CompareOp::kEqual: return x == v[0];
    case CompareOp::kNotEqual: return x != v[0];
    case CompareOp::kBetween: return v[0] <= x && x <= v[1];
    case CompareOp::kIn: return std::find(v.begin(), v.end(), x) != v.end();
  }
  return 0;
}

inline std::vector<uint8_t> brute_rows(const Table& t, const ScanExpr& e) {
  std::vector<uint8_t> m(t.rows());
  for (size_t r = 0; r < t.rows(); ++r) m[r] = brute(t, e, r) == 1;
  return m;
}

// A constant for column c: a value of the column, a neighbour, or an extreme.
inline int64_t pick_constant(const Table& t, uint32_t c, std::mt19937_64& rng) {
  const auto& v = t.values[c];
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  const int k = static_cast<int>(rng() % 10);
  if (v.empty() || k == 0) return k == 0 && rng() % 2 ? lo : hi;
  const int64_t x = v[rng() % v.size()];
  if (k <= 5) return x;
  if (k == 6) return x == hi ? x : x + 1;
  if (k == 7) return x == lo ? x : x - 1;
  if (k == 8) return *std::min_element(v.begin(), v.end()) - (rng() % 2);
  return *std::max_element(v.begin(), v.end()) + (rng() % 2);
}

inline ScanExpr random_predicate(const Table& t, uint32_t c, std::mt19937_64& rng) {
  const auto op = static_cast<CompareOp>(rng() % 8);
  std::vector<int64_t> vals;
  if (op == CompareOp::kBetween) {
    vals = {pick_constant(t, c, rng), pick_constant(t, c, rng)};
    if (rng() % 4 != 0 && vals[0] > vals[1]) std::swap(vals[0], vals[1]);  // sometimes empty
  } else if (op == CompareOp::kIn) {
    const int k = static_cast<int>(rng() % 5);
    for (int i = 0; i < k; ++i) vals.push_back(pick_constant(t, c, rng));
  } else {
    vals = {pick_constant(t, c, rng)};
  }
  return ScanExpr::pred(c, op, vals);
}

// A conjunction of k predicates on distinct random columns.
inline ScanExpr random_conjunction(const Table& t, uint32_t k, std::mt19937_64& rng) {
  std::vector<uint32_t> cols(t.values.size());
  for (uint32_t i = 0; i < cols.size(); ++i) cols[i] = i;
  std::shuffle(cols.begin(), cols.end(), rng);
  std::vector<ScanExpr> ps;
  for (uint32_t i = 0; i < k && i < cols.size(); ++i) ps.push_back(random_predicate(t, cols[i], rng));
  return ScanExpr::all_of(std::move(ps));
}

// A random tree of AND / OR / NOT over predicates, depth <= d.
inline ScanExpr random_tree(const Table& t, int d, std::mt19937_64& rng) {
  const int k = static_cast<int>(rng() % 6);
  if (d == 0 || k < 2) return random_predicate(t, static_cast<uint32_t>(rng() % t.values.size()), rng);
  if (k == 2) return ScanExpr::negate(random_tree(t, d - 1, rng));
  std::vector<ScanExpr> c;
  const int n = 2 + static_cast<int>(rng() % 3);
  for (int i = 0; i < n; ++i) c.push_back(random_tree(t, d - 1, rng));
  return k == 3 ? ScanExpr::any_of(std::move(c)) : ScanExpr::all_of(std::move(c));
}

class RtScanTest : public ::testing::TestWithParam<ScanKind> {
 protected:
  void SetUp() override {
    std::string why;
    if (!GetParam().available(&why)) GTEST_SKIP() << GetParam().name << " unavailable: " << why;
  }
  std::unique_ptr<ScanIndex> make(const Table& t, const RtScanOptions& o = {}) {
    cols_ = t.columns();
    return GetParam().make(cols_, o);
  }
  // Every method under every sieving mode against brute force.
  void check(ScanIndex& ix, const Table& t, const ScanExpr& e, const std::string& what) {
    const std::vector<uint8_t> want = brute_rows(t, e);
    for (SieveMode mode : {SieveMode::kNearest, SieveMode::kPositive, SieveMode::kNegative, SieveMode::kOff}) {
      ix.set_sieve_mode(mode);
      for (ScanMethod m : ix.methods()) {
        BitVector got;
        ix.evaluate(e, m, got, nullptr);
        ASSERT_EQ(got.rows, t.rows());
        ASSERT_EQ(got.words.size(), (t.rows() + 63) / 64);
        for (size_t r = 0; r < t.rows(); ++r) {
          if (got.test(r) != static_cast<bool>(want[r])) {
            FAIL() << what << ": method " << scan_method_name(m) << " sieve " << static_cast<int>(mode) << " row "
                   << r << " got " << got.test(r) << "\n"
                   << ix.explain(e);
          }
        }
        if (t.rows() % 64 != 0 && !got.words.empty()) {
          ASSERT_EQ(got.words.back() >> (t.rows() % 64), 0u) << "bits past the last row";
        }
      }
    }
    ix.set_sieve_mode(SieveMode::kNearest);
  }
  std::vector<ScanColumn> cols_;
};

TEST_P(RtScanTest, EveryDistributionOneToThreePredicates) {
  std::mt19937_64 rng(3);
  for (Dist d : kAllDists) {
    const Table t = make_table({d, d, Dist::kUniform}, 2011, static_cast<uint64_t>(d) + 10, {0.0, 0.05, 0.0});
    RtScanOptions o;
    o.bins = 16;
    auto ix = make(t, o);
    for (int q = 0; q < 12; ++q) {
      const ScanExpr e = random_conjunction(t, 1 + q % 3, rng);
      check(*ix, t, e, "dist " + std::to_string(static_cast<int>(d)) + " query " + std::to_string(q));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(RtScanTest, BooleanTreesWithOrAndNot) {
  std::mt19937_64 rng(4);
  const Table t = make_table({Dist::kZipf13, Dist::kSmall, Dist::kUniform, Dist::kDuplicates}, 1500, 21,
                             {0.1, 0.0, 0.02, 0.0});
  RtScanOptions o;
  o.bins = 8;
  auto ix = make(t, o);
  for (int q = 0; q < 40; ++q) {
    check(*ix, t, random_tree(t, 3, rng), "tree " + std::to_string(q));
    if (HasFatalFailure()) return;
  }
}

TEST_P(RtScanTest, OneToSixPredicatesInGroupsOfAtMostThree) {
  std::mt19937_64 rng(5);
  const Table t = make_table({Dist::kUniform, Dist::kZipf11, Dist::kNormal, Dist::kSmall, Dist::kZipf15,
                              Dist::kDuplicates},
                             1777, 31, {0, 0, 0, 0.03, 0, 0});
  for (auto groups : std::vector<std::vector<std::vector<uint32_t>>>{
           {}, {{0, 1}, {2, 3}, {4, 5}}, {{5}, {0, 2, 4}, {1, 3}}, {{0}, {1}, {2}, {3}, {4}, {5}}}) {
    RtScanOptions o;
    o.bins = 32;
    o.groups = groups;
    auto ix = make(t, o);
    for (uint32_t k = 1; k <= 6; ++k) {
      for (int q = 0; q < 3; ++q) {
        check(*ix, t, random_conjunction(t, k, rng), "k " + std::to_string(k));
        if (HasFatalFailure()) return;
      }
    }
  }
}

// Every border and every offset from it: every distinct value of a column as the
// constant of `<` and of `=` (alone and with a second predicate), with few rows per
// bin so each border is crossed by many constants, under two cell layouts.
TEST_P(RtScanTest, EveryBorderAndEveryConstant) {
  for (Dist d : {Dist::kUniform, Dist::kDuplicates}) {
    const Table t = make_table({d, Dist::kSmall}, 261, 41 + static_cast<uint64_t>(d), {0.0, 0.1});
    for (int shift : {-1, 6}) {  // auto, and coarse (many rows per cell)
      RtScanOptions o;
      o.bins = 9;
      o.cell_shift = shift;
      o.segment_cells = shift == 6 ? 1 : 5;
      o.groups = {{0, 1}};
      auto ix = make(t, o);
      std::vector<int64_t> consts = t.values[0];
      std::sort(consts.begin(), consts.end());
      consts.erase(std::unique(consts.begin(), consts.end()), consts.end());
      consts.push_back(consts.back() + 1);
      for (int64_t v : consts) {
        check(*ix, t, ScanExpr::pred(0, CompareOp::kLess, {v}), "v " + std::to_string(v));
        check(*ix, t,
              ScanExpr::all_of({ScanExpr::pred(0, CompareOp::kEqual, {v}), ScanExpr::pred(1, CompareOp::kLess, {40})}),
              "v and c1");
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(RtScanTest, ExtremesEmptyAndWholeDomain) {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{63}, size_t{64}, size_t{65}, size_t{1001}}) {
    const Table t = make_table({Dist::kExtreme, Dist::kAllEqual, Dist::kUniform}, n, 51, {0.0, 0.0, 0.2});
    auto ix = make(t);
    std::vector<ScanExpr> qs = {
        ScanExpr::pred(0, CompareOp::kLess, {lo}),          ScanExpr::pred(0, CompareOp::kGreater, {hi}),
        ScanExpr::pred(0, CompareOp::kLessEqual, {hi}),     ScanExpr::pred(0, CompareOp::kGreaterEqual, {lo}),
        ScanExpr::pred(0, CompareOp::kBetween, {5, 4}),     ScanExpr::pred(0, CompareOp::kBetween, {lo, hi}),
        ScanExpr::pred(1, CompareOp::kEqual, {42}),         ScanExpr::pred(1, CompareOp::kNotEqual, {42}),
        ScanExpr::pred(1, CompareOp::kIn, {}),              ScanExpr::pred(2, CompareOp::kGreaterEqual, {lo}),
        ScanExpr::negate(ScanExpr::pred(2, CompareOp::kLess, {100})),
        ScanExpr::constant(true),                           ScanExpr::constant(false),
        ScanExpr::all_of({}),                               ScanExpr::any_of({}),
        ScanExpr::all_of({ScanExpr::pred(0, CompareOp::kBetween, {lo, hi}), ScanExpr::pred(1, CompareOp::kEqual, {42}),
                          ScanExpr::pred(2, CompareOp::kLessEqual, {hi})}),
        ScanExpr::any_of({ScanExpr::pred(2, CompareOp::kLess, {0}), ScanExpr::pred(2, CompareOp::kGreaterEqual, {0})}),
    };
    for (size_t q = 0; q < qs.size(); ++q) {
      check(*ix, t, qs[q], "n " + std::to_string(n) + " query " + std::to_string(q));
      if (HasFatalFailure()) return;
    }
  }
}

// Long IN lists (many thin residual pieces, past the slab box limit) and NOT IN.
TEST_P(RtScanTest, LongInLists) {
  std::mt19937_64 rng(9);
  const Table t = make_table({Dist::kUniform, Dist::kDuplicates, Dist::kZipf11}, 3001, 81, {0.0, 0.02, 0.0});
  auto ix = make(t);
  for (size_t k : {size_t{40}, size_t{1500}}) {
    std::vector<int64_t> a, b;
    for (size_t i = 0; i < k; ++i) a.push_back(pick_constant(t, 0, rng)), b.push_back(pick_constant(t, 1, rng));
    const ScanExpr in_a = ScanExpr::pred(0, CompareOp::kIn, a), in_b = ScanExpr::pred(1, CompareOp::kIn, b);
    check(*ix, t, ScanExpr::all_of({in_a, in_b, ScanExpr::pred(2, CompareOp::kLess, {3})}), "in and in");
    check(*ix, t, ScanExpr::all_of({ScanExpr::negate(in_a), in_b}), "not in and in");
    if (HasFatalFailure()) return;
  }
}

// Large enough that every host loop runs on OpenMP threads (and the GPU kernels on
// many blocks): N not a multiple of 64, default bins, every sieving mode.
TEST_P(RtScanTest, LargerTableOnAllThreads) {
  std::mt19937_64 rng(8);
  const Table t = make_table({Dist::kUniform, Dist::kZipf13, Dist::kDuplicates}, 100003, 71, {0.0, 0.0, 0.01});
  auto ix = make(t);
  for (int q = 0; q < 3; ++q) {
    check(*ix, t, random_conjunction(t, 3, rng), "large " + std::to_string(q));
    if (HasFatalFailure()) return;
  }
  check(*ix, t, random_tree(t, 2, rng), "large tree");
}

// Indexes built with fewer structures still answer exactly with what they offer
// (no sieving vectors: RT refines the whole predicate region).
TEST_P(RtScanTest, FewerStructures) {
  std::mt19937_64 rng(10);
  const Table t = make_table({Dist::kZipf13, Dist::kUniform, Dist::kSmall}, 2500, 91, {0.0, 0.05, 0.0});
  for (int variant = 0; variant < 3; ++variant) {
    RtScanOptions o;
    o.build_sieve = variant != 0;
    o.sieve_refine = variant != 1;
    o.build_scan = variant != 2;
    auto ix = make(t, o);
    const std::vector<ScanMethod> ms = ix->methods();
    EXPECT_EQ(std::count(ms.begin(), ms.end(), ScanMethod::kCpuSieve) + std::count(ms.begin(), ms.end(), ScanMethod::kGpuSieve),
              variant == 2 ? 1 : 0);
    for (int q = 0; q < 4; ++q) {
      check(*ix, t, random_conjunction(t, 1 + q % 3, rng), "variant " + std::to_string(variant));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(RtScanTest, ReportsBuildAndQueryStats) {
  const Table t = make_table({Dist::kUniform, Dist::kZipf15, Dist::kSmall}, 5000, 61);
  auto ix = make(t);
  const ScanBuildStats& b = ix->build_stats();
  EXPECT_GE(b.structures.size(), 6u);  // encodings and sieves per column (+ structures)
  EXPECT_GT(b.host_bytes() + b.device_bytes(), 5000u * 3 * 4);
  const ScanExpr e = ScanExpr::all_of({ScanExpr::pred(0, CompareOp::kLess, {7000}),
                                       ScanExpr::pred(1, CompareOp::kGreater, {1}),
                                       ScanExpr::pred(2, CompareOp::kLess, {33})});
  for (ScanMethod m : ix->methods()) {
    BitVector bits;
    ScanQueryStats st;
    ix->evaluate(e, m, bits, &st);
    EXPECT_GE(st.groups, 1u);
    if (m == ScanMethod::kRt) {
      EXPECT_GT(st.rays, 0u);
      EXPECT_GE(st.rows_refined, st.sieve_rows > 0 ? 1u : 0u);
    }
  }
  EXPECT_NE(ix->explain(e).find("group 0"), std::string::npos);
}

// The planner's estimate (ScanIndex::estimate) against what an evaluation does: the
// jobs and the residual rows are exact (the sieve methods' ScanQueryStats count the
// same), and one predicate's match fraction is its exact share of the rows.
TEST_P(RtScanTest, EstimateMatchesTheEvaluation) {
  const Table t = make_table({Dist::kUniform, Dist::kZipf13, Dist::kSmall, Dist::kNormal}, 6000, 67, {0.1, 0, 0.05, 0});
  auto ix = make(t);
  std::mt19937_64 rng(5);
  ScanMethod sieve = ScanMethod::kCpuSieve;
  for (ScanMethod m : ix->methods())
    if (m == ScanMethod::kGpuSieve) sieve = m;
  for (int i = 0; i < 30; ++i) {
    const ScanExpr e = i % 2 ? random_tree(t, 2, rng) : random_conjunction(t, 1 + uint32_t(i % 4), rng);
    for (SieveMode mode : {SieveMode::kNearest, SieveMode::kOff}) {
      ix->set_sieve_mode(mode);
      const ScanEstimate est = ix->estimate(e);
      BitVector bits;
      ScanQueryStats st;
      ix->evaluate(e, sieve, bits, &st);
      EXPECT_EQ(est.residual_rows, st.sieve_rows) << i << "\n" << ix->explain(e);
      EXPECT_EQ(est.jobs, st.groups) << i << "\n" << ix->explain(e);
      EXPECT_LE(est.refine_jobs, est.jobs) << i;
      EXPECT_EQ(est.refine_jobs == 0, est.residual_rows == 0) << i << "\n" << ix->explain(e);
      EXPECT_GE(est.match_fraction, 0.0);
      EXPECT_LE(est.match_fraction, 1.0);
    }
    const ScanExpr one = random_predicate(t, uint32_t(i % 4), rng);
    BitVector bits;
    ix->evaluate(one, ix->methods().back(), bits);
    EXPECT_NEAR(ix->estimate(one).match_fraction * double(t.rows()), double(bits.count()), 1e-6) << i;
    EXPECT_DOUBLE_EQ(ix->estimate(one).scan_columns, ix->estimate(one).predicates > 0 ? 1.0 : 0.0) << i;
    // Two terms: the plain scan reads the first column whole and the second where a
    // row of a 128-byte line (32 rows) passed the more selective one.
    const ScanExpr other = random_predicate(t, uint32_t(i % 4 + 1) % 4, rng);
    const ScanEstimate a = ix->estimate(one), b = ix->estimate(other);
    if (a.predicates == 1 && b.predicates == 1) {
      const double first = std::min(a.match_fraction, b.match_fraction);
      EXPECT_NEAR(ix->estimate(ScanExpr::all_of({one, other})).scan_columns, 2 - std::pow(1 - first, 32), 1e-9) << i;
    }
  }
  ix->set_sieve_mode(SieveMode::kNearest);
}

// The estimate's memory terms against what they count. One predicate: one sieve pass,
// and its slabs are its residual rows (no other column narrows them). Conjunctions:
// every job's first constrained column is one pass and each later one at most one; the
// refine's sectors are none without residual rows and otherwise between one per
// sector a residual row sits in (at least R / 8 per column) and one per residual row
// and column.
TEST_P(RtScanTest, EstimateMemoryTerms) {
  const Table t = make_table({Dist::kUniform, Dist::kZipf13, Dist::kSmall, Dist::kUniform}, 5000, 71, {0, 0, 0.05, 0});
  auto ix = make(t);
  std::mt19937_64 rng(9);
  const double sectors = std::ceil(double(t.rows()) / 8);
  for (int i = 0; i < 40; ++i) {
    const ScanExpr one = random_predicate(t, uint32_t(i % 4), rng);
    const ScanEstimate a = ix->estimate(one);
    EXPECT_DOUBLE_EQ(a.sieve_passes, a.predicates > 0 ? 1.0 : 0.0) << i;
    EXPECT_NEAR(a.slab_rows, double(a.residual_rows), 1e-6 * double(t.rows())) << i << "\n" << ix->explain(one);
    const ScanExpr e = random_conjunction(t, 1 + uint32_t(i % 4), rng);
    const ScanEstimate est = ix->estimate(e);
    EXPECT_GE(est.sieve_passes, double(est.jobs) - 1e-9) << i;
    EXPECT_LE(est.sieve_passes, double(est.predicates) + 1e-9) << i;
    EXPECT_EQ(est.refine_sectors == 0, est.residual_rows == 0) << i;
    EXPECT_LE(est.refine_sectors, 3.0 * double(est.residual_rows) * (1 + 8.0 / double(t.rows()))) << i;
    if (est.refine_jobs == 1) EXPECT_GE(est.refine_sectors, double(est.residual_rows) / 8 * (1 - 1e-9)) << i;
    EXPECT_LE(est.refine_sectors, 3.0 * sectors * est.refine_jobs + 1e-9) << i;
    EXPECT_GE(est.slab_rows, 0.0) << i;
    EXPECT_LE(est.slab_rows, double(t.rows()) * est.slabs + 1e-6) << i;
  }
}

}  // namespace raydb::rtscan_cases
