// Keys keep the SQL order, and the quantile definitions match DuckDB 2.0.1, the
// oracle: every expected value below was produced by DuckDB (python duckdb 2.0.1) with
// the query in the comment next to it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "exec/order_statistics/reference.h"

namespace raydb::test {
namespace {

using namespace orderstat_ref;

TEST(OrderKeys, PreserveTheOrder) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> d = {-inf, -1e308, -1.5, -5e-324, -0.0, 0.0, 5e-324, 1.0, 1e308, inf, nan};
  for (size_t i = 0; i + 1 < d.size(); i++) EXPECT_LT(double_key(d[i]), double_key(d[i + 1])) << i;
  EXPECT_EQ(double_key(nan), double_key(-nan));  // every NaN is one value, above +inf
  for (double x : d) {
    const double back = double_from_key(double_key(x));
    EXPECT_TRUE(std::isnan(x) ? std::isnan(back) : (back == x && std::signbit(back) == std::signbit(x)));
  }
  const std::vector<int64_t> v = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};
  for (size_t i = 0; i + 1 < v.size(); i++) EXPECT_LT(int64_key(v[i]), int64_key(v[i + 1]));
  for (int64_t x : v) EXPECT_EQ(int64_from_key(int64_key(x)), x);
  EXPECT_LT(int32_key(INT32_MIN), int32_key(-1));
  EXPECT_LT(int32_key(-1), int32_key(0));
  EXPECT_LT(int32_key(0), int32_key(INT32_MAX));
  EXPECT_EQ(int_from_key(KeyType::kInt32, key_at(KeyType::kInt32, std::vector<int32_t>{-9}.data(), 0)), -9);
}

// Position (0-based) of quantile_disc over n values.
uint64_t disc(uint64_t n, Quantile q) { return ranks_for(RankSpec::disc(q), n).lo; }

TEST(DuckDbSemantics, QuantileDisc) {
  // select quantile_disc(x, [0, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9, 1]) from range(1, 11) t(x)
  //   -> [1, 1, 3, 3, 5, 7, 8, 9, 10]
  const std::vector<std::pair<int64_t, int64_t>> q = {{0, 1},  {1, 10},  {25, 100}, {3, 10}, {5, 10},
                                                      {7, 10}, {75, 100}, {9, 10},   {1, 1}};
  const std::vector<uint64_t> want = {0, 0, 2, 2, 4, 6, 7, 8, 9};
  for (size_t i = 0; i < q.size(); i++) EXPECT_EQ(disc(10, Quantile::decimal(q[i].first, q[i].second)), want[i]) << i;
  // over range(1, 5): [1, 1, 1, 2, 2, 3, 3, 4, 4]
  const std::vector<uint64_t> want4 = {0, 0, 0, 1, 1, 2, 2, 3, 3};
  for (size_t i = 0; i < q.size(); i++) EXPECT_EQ(disc(4, Quantile::decimal(q[i].first, q[i].second)), want4[i]) << i;
  // DOUBLE q is rounded to 15 decimal places first:
  // select quantile_disc(x, (0.1 + 0.2)::double) from range(0, 10) t(x) -> 2 (not 3)
  EXPECT_EQ(disc(10, Quantile::of(0.1 + 0.2)), 2u);
  // quantile_disc(x, 0.300000000000001::double) over range(0, 10) -> 3
  EXPECT_EQ(disc(10, Quantile::of(0.300000000000001)), 3u);
  // quantile_disc(x, 0.7::double) over range(1, 11) -> 7; 0.56 over range(0, 25) -> 13
  EXPECT_EQ(disc(10, Quantile::of(0.7)), 6u);
  EXPECT_EQ(disc(25, Quantile::of(0.56)), 13u);
  // quantile_disc(x, 0.2::double) over range(0, 515) -> 102; 0.1 over range(0, 690) -> 68
  EXPECT_EQ(disc(515, Quantile::of(0.2)), 102u);
  EXPECT_EQ(disc(690, Quantile::of(0.1)), 68u);
  EXPECT_EQ(disc(1, Quantile::of(0.0)), 0u);
  EXPECT_EQ(disc(1, Quantile::of(1.0)), 0u);
}

double cont_over(const std::vector<double>& sorted, Quantile q) {
  const RankPair p = ranks_for(RankSpec::cont(q), sorted.size());
  return p.lo == p.hi ? sorted[p.lo] : interpolate_double(sorted[p.lo], sorted[p.hi], p.d);
}

TEST(DuckDbSemantics, QuantileCont) {
  // select quantile_cont(x, [0, 0.1, 0.25, 0.5, 0.75, 1]) from range(1, 11) t(x)
  //   -> [1.0, 1.9, 3.25, 5.5, 7.75, 10.0]
  std::vector<double> r10;
  for (int i = 1; i <= 10; i++) r10.push_back(i);
  const std::vector<std::pair<int64_t, int64_t>> q = {{0, 1}, {1, 10}, {25, 100}, {5, 10}, {75, 100}, {1, 1}};
  const std::vector<double> want = {1.0, 1.9, 3.25, 5.5, 7.75, 10.0};
  for (size_t i = 0; i < q.size(); i++) EXPECT_EQ(cont_over(r10, Quantile::decimal(q[i].first, q[i].second)), want[i]);
  // over range(1, 4): quantile_cont(x, 0.1) -> 1.2000000000000002
  EXPECT_EQ(cont_over({1, 2, 3}, Quantile::decimal(1, 10)), 1.2000000000000002);
  // quantile_cont(x, 0.7) over range(0, 11) -> 7.0 (RN = 10 * 0.7 is 7.000000000000001,
  // so the ranks differ, yet the interpolation lands on 7.0)
  std::vector<double> r11;
  for (int i = 0; i <= 10; i++) r11.push_back(i);
  EXPECT_EQ(cont_over(r11, Quantile::decimal(7, 10)), 7.0);
  // quantile_cont(x, 0.673) over (-801.0, -778.0) -> -785.5210000000001 (the fused
  // multiply-add; lo * (1 - d) + hi * d rounded twice gives -785.521)
  EXPECT_EQ(cont_over({-801, -778}, Quantile::decimal(673, 1000)), -785.5210000000001);
  // median over (-inf, inf) -> nan; over (inf, nan) -> nan
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(cont_over({-inf, inf}, Quantile{1, 2})));
  EXPECT_TRUE(std::isnan(cont_over({inf, nan}, Quantile{1, 2})));
  // quantile_cont(x, 0.7) over (-1e300, 1e300, 1.7e308) -> 6.800000059999999e+307
  EXPECT_EQ(cont_over({-1e300, 1e300, 1.7e308}, Quantile::decimal(7, 10)), 6.800000059999999e+307);
}

TEST(DuckDbSemantics, TypedResults) {
  // select median(x) from (values (1.50::decimal(10,2)), (2.25::decimal(10,2))) -> 1.87 (truncated)
  EXPECT_EQ(interpolate_scaled(150, 225, 0.5), 187);
  // (-1.51, -2.20) -> -1.85 (toward zero)
  EXPECT_EQ(interpolate_scaled(-220, -151, 0.5), -185);
  // median of DATE '2020-01-01' and '2020-01-04' -> TIMESTAMP '2020-01-02 12:00:00'
  OrderStat s;
  s.is_null = false;
  s.interpolated = true;
  s.lo_key = int32_key(18262);  // 2020-01-01 in days since 1970
  s.hi_key = int32_key(18265);
  s.d = 0.5;
  EXPECT_EQ(as_timestamp_micros_from_days(s), (18263LL * 86400 + 43200) * 1000000);
  // median(x) over (-3::int, -4::int) -> -3.5; over (9223372036854775807, 9223372036854775806)
  // -> 9.223372036854776e+18
  s.lo_key = int32_key(-4);
  s.hi_key = int32_key(-3);
  EXPECT_EQ(as_double(KeyType::kInt32, s), -3.5);
  s.lo_key = int64_key(INT64_MAX - 1);
  s.hi_key = int64_key(INT64_MAX);
  EXPECT_EQ(as_double(KeyType::kInt64, s), 9.223372036854776e+18);
}

TEST(DuckDbSemantics, SignedZerosAndNulls) {
  // select median(x) from (values (-0.0::double)) -> -0.0
  // select median(x), quantile_disc(x, 1) from (values (-0.0), (0.0), (1.0)) -> 0.0, 1.0
  Data d = doubles("zeros", {-0.0});
  OrderStats r = order_statistics(d.input(), {RankSpec::median()});
  EXPECT_TRUE(std::signbit(as_double(KeyType::kDouble, r.at(0, 0))));
  d = doubles("zeros", {1.0, 0.0, -0.0});
  r = order_statistics(d.input(), {RankSpec::median(), RankSpec::disc(Quantile{1, 1})});
  const double m = as_double(KeyType::kDouble, r.at(0, 0));
  EXPECT_TRUE(m == 0.0 && !std::signbit(m));
  EXPECT_EQ(as_double(KeyType::kDouble, r.at(0, 1)), 1.0);
  // select median(x) from (values (1), (null), (3)) -> 2.0; all NULL -> NULL
  Data n = ints32("nulls", {1, 0, 3});
  n.nulls = {0, 1, 0};
  r = order_statistics(n.input(), {RankSpec::median()});
  EXPECT_EQ(as_double(KeyType::kInt32, r.at(0, 0)), 2.0);
  n.nulls = {1, 1, 1};
  EXPECT_TRUE(order_statistics(n.input(), {RankSpec::median()}).at(0, 0).is_null);
}

TEST(DuckDbSemantics, RejectsQuantilesOutsideZeroOne) {
  EXPECT_THROW(Quantile::of(1.5), std::exception);
  EXPECT_THROW(Quantile::of(-0.1), std::exception);
  EXPECT_THROW(Quantile::of(std::nan("")), std::exception);
  EXPECT_THROW(Quantile::decimal(11, 10), std::exception);
  EXPECT_TRUE(ranks_for(RankSpec::kth_smallest(0), 5).valid == false);
  EXPECT_TRUE(ranks_for(RankSpec::kth_largest(6), 5).valid == false);
  EXPECT_EQ(ranks_for(RankSpec::kth_largest(5), 5).lo, 0u);
}

}  // namespace
}  // namespace raydb::test
