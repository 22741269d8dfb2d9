// plan::nonnegative_fit: the calibration's least squares, against known coefficients.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// Five unknowns at the scales of the GPU sieve's fit (calibrator's sieve_points): a
// fixed part, rows x passes (~10^8), jobs, refine launches and refine sectors (~10^5),
// times near 0.1-0.4 ms in ns. The normal equations span 16 orders of magnitude; the
// coefficients must still come back.
TEST(NonnegativeFit, RecoversFiveUnknownsOfVeryDifferentScales) {
  const double rows = 67108864, truth[5] = {36000, 0.00043, 22000, 64000, 0.019};
  std::vector<FitPoint> pts;
  for (int preds = 1; preds <= 4; ++preds)
    for (const double keep : {0.01, 0.1, 0.5, 0.9}) {
      double passes = 0, q = 1;
      for (int d = 0; d < std::min(preds, 3); ++d) passes += 1 - std::pow(1 - q, 32), q *= keep;
      if (preds == 4) passes += 1;
      const double jobs = preds == 4 ? 2 : 1, refine = keep == 0.5 ? 0 : jobs;
      const double sectors = refine * std::min(preds, 3) * rows / 8 * (1 - std::pow(1 - 0.002 * preds, 8));
      const std::vector<double> x = {1.0, rows * passes, jobs, refine, sectors};
      double y = 0;
      for (int j = 0; j < 5; ++j) y += truth[j] * x[j];
      pts.push_back({x, y});
    }
  const std::vector<double> c = nonnegative_fit(pts, 5);
  ASSERT_EQ(c.size(), 5u);
  for (int j = 0; j < 5; ++j) EXPECT_NEAR(c[j], truth[j], 1e-6 * truth[j]) << j;
  EXPECT_LT(worst_relative_error(pts, c), 1e-9);
}

}  // namespace
}  // namespace raydb::plan
