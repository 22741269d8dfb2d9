#include "bench/scan_data.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>

#include <omp.h>

#include "common/error.h"
#include "exec/core/order_statistics/order_statistics.h"

namespace raydb::bench {

namespace {

constexpr int64_t kU32Max = 4294967295;

// Devroye's rejection method for Zipf(a), a > 1 (the one numpy's zipf uses), so the
// skewed datasets have the distribution the artifact's generator gives.
int64_t zipf_draw(double a, std::mt19937_64& g) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const double am1 = a - 1.0, b = std::pow(2.0, am1);
  for (;;) {
    const double u = 1.0 - u01(g), v = u01(g);
    const double x = std::floor(std::pow(u, -1.0 / am1));
    if (!(x >= 1.0) || x > 9.2e18) continue;
    const double t = std::pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return static_cast<int64_t>(static_cast<uint64_t>(x) % kU32Max);
  }
}

// Fills v by f(generator) in parallel chunks, each chunk seeded from (seed, chunk).
template <typename F>
void fill_parallel(std::vector<int64_t>& v, uint64_t seed, F f) {
  const int64_t chunk = 1 << 20, chunks = (static_cast<int64_t>(v.size()) + chunk - 1) / chunk;
#pragma omp parallel for schedule(dynamic)
  for (int64_t c = 0; c < chunks; ++c) {
    std::mt19937_64 g(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(c));
    const size_t end = std::min(v.size(), static_cast<size_t>((c + 1) * chunk));
    for (size_t i = static_cast<size_t>(c * chunk); i < end; ++i) v[i] = f(g);
  }
}

std::vector<int64_t> make_column(const std::string& dist, uint64_t rows, uint64_t seed) {
  std::vector<int64_t> v(rows);
  if (dist == "uniform") {  // a random permutation of 0..rows-1 (sequential Fisher-Yates)
    std::iota(v.begin(), v.end(), int64_t{0});
    std::mt19937_64 g(seed);
    for (uint64_t i = rows; i > 1; --i) std::swap(v[i - 1], v[std::uniform_int_distribution<uint64_t>(0, i - 1)(g)]);
  } else if (dist.rfind("zipf", 0) == 0) {
    const double a = std::stod(dist.substr(4));
    fill_parallel(v, seed, [a](std::mt19937_64& g) { return zipf_draw(a, g); });
  } else if (dist == "normal") {
    fill_parallel(v, seed, [](std::mt19937_64& g) {
      return static_cast<int64_t>(std::llround(std::normal_distribution<double>(2147483648.0, 1.0)(g)));
    });
  } else {  // small
    fill_parallel(v, seed, [](std::mt19937_64& g) { return static_cast<int64_t>(g() & 63); });
  }
  return v;
}

}  // namespace

bool known_scan_distribution(const std::string& d) {
  return d == "uniform" || d == "zipf1.1" || d == "zipf1.3" || d == "zipf1.5" || d == "normal" || d == "small";
}

ScanData generate_scan_data(const std::string& distribution, uint64_t rows, uint32_t columns, uint64_t seed) {
  if (!known_scan_distribution(distribution))
    fail(ErrorKind::kInvalidInput, "unknown dataset '{}' (expected uniform, zipf1.1, zipf1.3, zipf1.5, normal, small)",
         distribution);
  ScanData d;
  d.name = distribution;
  d.columns.resize(columns);
  // One column per thread (the permutation is sequential); the other generators
  // parallelize inside.
  const bool outer = distribution == "uniform";
#pragma omp parallel for if (outer) schedule(static, 1)
  for (uint32_t c = 0; c < columns; ++c) d.columns[c] = make_column(distribution, rows, seed + 1000 * c);
  return d;
}

ScanData load_scan_file(const std::string& path, uint32_t columns) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail(ErrorKind::kIO, "{}: cannot open", path);
  const uint64_t bytes = static_cast<uint64_t>(in.tellg());
  if (bytes == 0 || bytes % (4ull * columns) != 0)
    fail(ErrorKind::kInvalidInput, "{}: {} bytes is not {} uint32 columns of equal length", path, bytes, columns);
  const uint64_t rows = bytes / (4ull * columns);
  in.seekg(0);
  ScanData d;
  const size_t slash = path.find_last_of('/');
  d.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  std::vector<uint32_t> buf(rows);
  for (uint32_t c = 0; c < columns; ++c) {
    if (!in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(rows * 4)))
      fail(ErrorKind::kIO, "{}: short read", path);
    d.columns.emplace_back(buf.begin(), buf.end());
  }
  return d;
}

std::vector<int64_t> selectivity_thresholds(const std::vector<int64_t>& column, const std::vector<double>& sels) {
  namespace os = exec::orderstat;
  std::vector<os::RankSpec> specs;
  for (double s : sels) {
    if (!(s > 0 && s <= 1)) fail(ErrorKind::kInvalidInput, "selectivity {} is not in (0, 1]", s);
    specs.push_back(os::RankSpec::kth_smallest(
        std::max<int64_t>(1, static_cast<int64_t>(std::ceil(s * static_cast<double>(column.size()) - 1e-9)))));
  }
  os::ColumnInput in;
  in.type = os::KeyType::kInt64;
  in.values = column.data();
  in.n = column.size();
  const os::OrderStats r = os::order_statistics(in, specs);
  std::vector<int64_t> out;
  for (uint32_t i = 0; i < specs.size(); ++i) out.push_back(os::int_from_key(in.type, r.at(0, i).lo_key) + 1);
  return out;
}

}  // namespace raydb::bench
