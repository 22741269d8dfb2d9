// ExactDoubleSum (exec/core/exact_double_sum.h) against a brute-force big-integer oracle
// (support/exact_sum_oracle.h): adversarial sets (cancellation, subnormals, ties to
// even, overflow, infinities, NaN, signed zeros) and random ones in every order and
// split into merged partial sums; plus the DOUBLE order key of MIN/MAX.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "exec/core/exact_double_sum.h"
#include "support/exact_sum_oracle.h"

namespace raydb::exec {
namespace {

// Same double, bit for bit (all NaNs equal: both sides produce the canonical one).
::testing::AssertionResult same_double(double a, double b) {
  if ((std::isnan(a) && std::isnan(b)) || double_bits(a) == double_bits(b)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::hexfloat << a << " vs " << b;
}

double exact(const std::vector<double>& v) {
  ExactDoubleSum s;
  s.init();
  for (double x : v) s.add(x);
  return s.round();
}
double oracle(const std::vector<double>& v) {
  test::ExactSumOracle o;
  for (double x : v) o.add(x);
  return o.result();
}

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kMin = std::numeric_limits<double>::denorm_min();

TEST(ExactDoubleSum, AdversarialSetsMatchTheOracle) {
  const double p53 = std::ldexp(1.0, 53);
  const std::vector<std::vector<double>> sets = {
      {1e308, -1e308, 1e-300},
      {1e308, 1e-300, -1e308},
      {DBL_MAX, DBL_MAX, -DBL_MAX},  // the sequential sum overflows; the exact one is DBL_MAX
      {DBL_MAX, DBL_MAX},
      {-DBL_MAX, -DBL_MAX},
      {DBL_MAX, std::ldexp(1.0, 970)},       // exactly halfway to 2^1024: ties to even -> inf
      {DBL_MAX, std::ldexp(1.0, 969)},       // below halfway: DBL_MAX
      {DBL_MAX, std::ldexp(1.0, 970), -kMin},
      {-0.0},
      {-0.0, -0.0, -0.0},
      {-0.0, 0.0},
      {0.0, -0.0},
      {1.0, -1.0},
      {-1.0, 1.0, -0.0},
      {kMin, kMin, kMin},
      {kMin, -kMin},
      {DBL_MIN, -kMin},  // normal minus subnormal quantum: largest subnormal
      {DBL_MIN / 2, DBL_MIN / 2},
      {p53, 1.0},              // tie: to even (2^53)
      {p53, 1.0, kMin},        // just above the tie
      {p53 + 2, 1.0},          // tie: to even (2^53 + 4)
      {p53, -0.5},             // tie below
      {p53, 1.0, 1.0},
      {1.0, 1e-16, 1e-16, 1e-16, 1e-16},
      {0.1, 0.2, 0.3, -0.6},
      {kInf, 1.0},
      {-kInf, 1e308, 1e308},
      {kInf, -kInf},
      {kNaN, 1.0},
      {kInf, kNaN},
      {-kNaN, -0.0},
  };
  for (const auto& s : sets) {
    EXPECT_TRUE(same_double(exact(s), oracle(s))) << "set of " << s.size() << " starting " << s[0];
    std::vector<double> r(s.rbegin(), s.rend());
    EXPECT_TRUE(same_double(exact(r), oracle(s)));
  }
  // Spot checks that the oracle itself is right.
  EXPECT_EQ(exact({1e308, -1e308, 1e-300}), 1e-300);
  EXPECT_EQ(exact({DBL_MAX, DBL_MAX, -DBL_MAX}), DBL_MAX);
  EXPECT_TRUE(std::signbit(exact({-0.0, -0.0})));
  EXPECT_FALSE(std::signbit(exact({-0.0, 0.0})));
  EXPECT_FALSE(std::signbit(exact({1.0, -1.0})));
  EXPECT_EQ(exact({p53, 1.0}), p53);
  EXPECT_EQ(exact({p53 + 2, 1.0}), p53 + 4);
  EXPECT_EQ(exact({DBL_MAX, std::ldexp(1.0, 970)}), kInf);
  EXPECT_TRUE(std::isnan(exact({kInf, -kInf})));
  EXPECT_EQ(exact({kMin, kMin, kMin}), 3 * kMin);
}

// Random multisets over the whole range, in several orders and split into partial
// sums merged in random order (with normalizations at random points): always the
// oracle's value.
TEST(ExactDoubleSum, RandomSetsAnyOrderAnySplit) {
  std::mt19937_64 rng(42);
  auto random_double = [&]() -> double {
    switch (rng() % 6) {
      case 0: return std::ldexp(double(rng() >> 11), int(rng() % 2098) - 1126);  // anywhere
      case 1: return bits_double(rng() & 0x800FFFFFFFFFFFFFull);               // subnormal
      case 2: return double(int64_t(rng() % 2001) - 1000) / 7.0;               // small, inexact
      case 3: return std::ldexp(double(rng() >> 11), 960);                     // near overflow
      case 4: return (rng() & 1 ? -1.0 : 1.0) * std::ldexp(1.0, int(rng() % 100));
      default: return bits_double(rng() & 0xFFEFFFFFFFFFFFFFull);              // any finite bits
    }
  };
  for (int t = 0; t < 300; t++) {
    std::vector<double> v(1 + rng() % 200);
    for (auto& x : v) x = (rng() & 1 ? -1 : 1) * random_double();
    if (t % 3 == 0)  // cancellation: add the negations of a random half
      for (size_t i = 0, n = v.size(); i < n; i += 2) v.push_back(-v[i]);
    const double want = oracle(v);
    EXPECT_TRUE(same_double(exact(v), want)) << "trial " << t;
    std::shuffle(v.begin(), v.end(), rng);
    EXPECT_TRUE(same_double(exact(v), want)) << "trial " << t << " shuffled";
    std::vector<ExactDoubleSum> parts(1 + rng() % 5);
    for (auto& p : parts) p.init();
    for (double x : v) {
      auto& p = parts[rng() % parts.size()];
      p.add(x);
      if (rng() % 17 == 0) p.normalize();
    }
    std::shuffle(parts.begin(), parts.end(), rng);
    for (size_t i = 1; i < parts.size(); i++) parts[0].merge(parts[i]);
    EXPECT_TRUE(same_double(parts[0].round(), want)) << "trial " << t << " merged";
    parts[0].reset();
    EXPECT_TRUE(same_double(parts[0].round(), -0.0));  // nothing added: the empty sum
  }
}

TEST(ExactDoubleSum, OrderKeyOfMinMax) {
  const std::vector<double> asc = {-kInf, -DBL_MAX, -1.0, -kMin, -0.0, 0.0, kMin, 1.0, DBL_MAX, kInf, kNaN};
  for (size_t i = 0; i + 1 < asc.size(); i++)
    EXPECT_LT(double_order_key(double_bits(asc[i])), double_order_key(double_bits(asc[i + 1]))) << asc[i];
  for (double d : asc) EXPECT_TRUE(same_double(bits_double(double_from_order_key(double_order_key(double_bits(d)))), d));
  // Every NaN is one value, canonical after decoding.
  EXPECT_EQ(double_order_key(double_bits(-kNaN)), double_order_key(double_bits(kNaN)));
  EXPECT_EQ(double_from_order_key(double_order_key(double_bits(-kNaN))), kCanonicalNaNBits);
  EXPECT_EQ(same_value_bits(double_bits(-0.0)), double_bits(0.0));
  EXPECT_EQ(same_value_bits(double_bits(-kNaN)), kCanonicalNaNBits);
}

}  // namespace
}  // namespace raydb::exec
