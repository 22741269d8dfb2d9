// Non-negative weighted least squares for the few unknowns of a cost model (at most
// 5: a fixed part and per-unit costs). Written here rather than taken from a linear
// algebra library: with k <= 5 unknowns every subset of them can be solved by Gaussian
// elimination and the best non-negative one kept, which is exact and a few lines.
#pragma once

#include <cstddef>
#include <vector>

namespace raydb::plan {

struct FitPoint {
  std::vector<double> x;  // one value per unknown (the work units of one measurement)
  double y = 0;           // the measured time
};

// Minimizes sum ((x . c - y) / y)^2 (relative error: times span an order of magnitude)
// over c >= 0. Returns one coefficient per unknown; unknowns the data cannot support
// (a negative best value) come back as 0.
std::vector<double> nonnegative_fit(const std::vector<FitPoint>& points, size_t unknowns);

// The largest |x . c / y - 1| over the points: how well the fit reproduces them.
double worst_relative_error(const std::vector<FitPoint>& points, const std::vector<double>& c);

}  // namespace raydb::plan
