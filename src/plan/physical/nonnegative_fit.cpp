#include "plan/physical/nonnegative_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace raydb::plan {

namespace {

// Solves the normal equations of the unknowns in `mask`; false when singular.
bool solve_subset(const std::vector<FitPoint>& pts, size_t k, unsigned mask, std::vector<double>& c) {
  std::vector<size_t> idx;
  for (size_t j = 0; j < k; ++j)
    if (mask & (1u << j)) idx.push_back(j);
  const size_t m = idx.size();
  std::vector<std::vector<double>> a(m, std::vector<double>(m + 1, 0.0));
  for (const FitPoint& p : pts) {
    const double w = p.y > 0 ? 1.0 / (p.y * p.y) : 1.0;
    for (size_t r = 0; r < m; ++r) {
      for (size_t s = 0; s < m; ++s) a[r][s] += w * p.x[idx[r]] * p.x[idx[s]];
      a[r][m] += w * p.x[idx[r]] * p.y;
    }
  }
  for (size_t col = 0; col < m; ++col) {  // Gaussian elimination with partial pivoting
    size_t piv = col;
    for (size_t r = col + 1; r < m; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[piv][col])) piv = r;
    if (std::fabs(a[piv][col]) < 1e-300) return false;
    std::swap(a[piv], a[col]);
    for (size_t r = 0; r < m; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (size_t s = col; s <= m; ++s) a[r][s] -= f * a[col][s];
    }
  }
  c.assign(k, 0.0);
  for (size_t r = 0; r < m; ++r) c[idx[r]] = a[r][m] / a[r][r];
  return true;
}

double relative_sse(const std::vector<FitPoint>& pts, const std::vector<double>& c) {
  double sse = 0;
  for (const FitPoint& p : pts) {
    double pred = 0;
    for (size_t j = 0; j < c.size(); ++j) pred += c[j] * p.x[j];
    const double e = p.y > 0 ? (pred - p.y) / p.y : pred - p.y;
    sse += e * e;
  }
  return sse;
}

}  // namespace

std::vector<double> nonnegative_fit(const std::vector<FitPoint>& points, size_t unknowns) {
  std::vector<double> best(unknowns, 0.0), c;
  double best_sse = std::numeric_limits<double>::infinity();
  for (unsigned mask = 1; mask < (1u << unknowns); ++mask) {
    if (!solve_subset(points, unknowns, mask, c)) continue;
    bool ok = true;
    for (const double v : c) ok = ok && v >= 0;
    if (!ok) continue;
    const double sse = relative_sse(points, c);
    if (sse < best_sse) best_sse = sse, best = c;
  }
  return best;
}

double worst_relative_error(const std::vector<FitPoint>& points, const std::vector<double>& c) {
  double worst = 0;
  for (const FitPoint& p : points) {
    double pred = 0;
    for (size_t j = 0; j < c.size(); ++j) pred += c[j] * p.x[j];
    if (p.y > 0) worst = std::max(worst, std::fabs(pred / p.y - 1));
  }
  return worst;
}

}  // namespace raydb::plan
