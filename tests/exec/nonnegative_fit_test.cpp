// plan::nonnegative_fit: the calibration's least squares, against known coefficients.
#include <gtest/gtest.h>

#include <random>

#include "plan/physical/nonnegative_fit.h"

namespace raydb::plan {
namespace {

TEST(NonnegativeFit, RecoversExactCoefficients) {
  std::vector<FitPoint> pts;
  for (int a = 1; a <= 4; ++a)
    for (int b = 0; b <= 3; ++b) pts.push_back({{1.0, double(a), double(b * b)}, 0.09 + 0.13 * a + 0.02 * b * b});
  const std::vector<double> c = nonnegative_fit(pts, 3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_NEAR(c[0], 0.09, 1e-9);
  EXPECT_NEAR(c[1], 0.13, 1e-9);
  EXPECT_NEAR(c[2], 0.02, 1e-9);
  EXPECT_LT(worst_relative_error(pts, c), 1e-9);
}

// Data a negative coefficient would fit best: that unknown is dropped (0) and the
// others refitted, never a negative cost.
TEST(NonnegativeFit, ClampsUnsupportedTermsToZero) {
  std::vector<FitPoint> pts;
  std::mt19937 rng(7);
  for (int i = 1; i <= 20; ++i) pts.push_back({{1.0, double(i)}, 5.0 - 0.1 * i + 0.01 * double(rng() % 3)});
  const std::vector<double> c = nonnegative_fit(pts, 2);
  EXPECT_GT(c[0], 0);
  EXPECT_EQ(c[1], 0);
  // Relative error: the fit of a constant lies between the smallest and largest times.
  EXPECT_GT(c[0], 3.0);
  EXPECT_LT(c[0], 5.0);
}

}  // namespace
}  // namespace raydb::plan
