#include "bench/view_calibrator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "bench/ssb_runner.h"
#include "bench/view_run.h"
#include "common/error.h"
#include "common/timer.h"
#include "gen/ssb/ssb_queries.h"
#include "plan/physical/cost_model.h"
#include "raydb/admin.h"
#include "raydb/system.h"
#include "storage/persist/database_directory.h"

namespace raydb::bench {
namespace {

struct Sample {
  std::string query;
  ViewRun run;
  double star_ms = 0, view_ms = 0;
};

double median_ms(Database& db, const std::string& sql, Backend b, int reps) {
  QueryOptions o;
  o.backend = b;
  db.query(sql, o);  // warm-up (builds the view, uploads tables)
  std::vector<double> t;
  for (int i = 0; i < std::max(1, reps); ++i) {
    Timer timer;
    db.query(sql, o);
    t.push_back(timer.elapsed_ms());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Least squares of y ~ X b with b >= 0: solve the normal equations, drop the most
// negative coefficient, repeat (few columns, well-separated features).
std::vector<double> nonnegative_fit(const std::vector<std::vector<double>>& X, const std::vector<double>& y) {
  const size_t k = X.empty() ? 0 : X[0].size();
  std::vector<bool> on(k, true);
  std::vector<double> b(k, 0);
  for (size_t round = 0; round < k; ++round) {
    std::vector<size_t> cols;
    for (size_t j = 0; j < k; ++j)
      if (on[j]) cols.push_back(j);
    const size_t m = cols.size();
    if (m == 0) break;
    // Columns scaled to unit size so rays (10^6) and the constant (1) solve alike.
    std::vector<double> scale(m, 0);
    for (size_t a = 0; a < m; ++a) {
      for (const auto& row : X) scale[a] = std::max(scale[a], std::abs(row[cols[a]]));
      if (scale[a] == 0) scale[a] = 1;
    }
    std::vector<std::vector<double>> A(m, std::vector<double>(m + 1, 0));
    for (size_t i = 0; i < X.size(); ++i)
      for (size_t a = 0; a < m; ++a) {
        for (size_t c = 0; c < m; ++c) A[a][c] += X[i][cols[a]] / scale[a] * X[i][cols[c]] / scale[c];
        A[a][m] += X[i][cols[a]] / scale[a] * y[i];
      }
    for (size_t a = 0; a < m; ++a) A[a][a] += 1e-9;  // ridge: a feature that never varies
    for (size_t p = 0; p < m; ++p) {  // Gauss-Jordan with partial pivoting
      size_t best = p;
      for (size_t r = p + 1; r < m; ++r)
        if (std::abs(A[r][p]) > std::abs(A[best][p])) best = r;
      std::swap(A[p], A[best]);
      for (size_t r = 0; r < m; ++r) {
        if (r == p || A[p][p] == 0) continue;
        const double f = A[r][p] / A[p][p];
        for (size_t c = p; c <= m; ++c) A[r][c] -= f * A[p][c];
      }
    }
    std::fill(b.begin(), b.end(), 0);
    size_t worst = k;
    for (size_t a = 0; a < m; ++a) {
      b[cols[a]] = A[a][a] != 0 ? A[a][m] / A[a][a] / scale[a] : 0;
      if (b[cols[a]] < 0 && (worst == k || b[cols[a]] < b[worst])) worst = cols[a];
    }
    if (worst == k) return b;
    on[worst] = false;
  }
  for (double& x : b) x = std::max(0.0, x);
  return b;
}

std::vector<Sample> measure(Database& db, Backend star, int reps) {
  std::vector<Sample> out;
  QueryOptions rt;
  rt.backend = Backend::kRt;
  for (const auto& q : ssb::standard_queries()) {
    const std::string sql = ssb_query_sql(q.name);
    Sample s;
    s.query = q.name;
    s.run = parse_view_run(db.query("EXPLAIN ANALYZE " + sql, rt).explain);
    if (s.run.view.empty() || s.run.star_model_ms <= 0) continue;
    s.star_ms = median_ms(db, sql, star, reps);
    s.view_ms = median_ms(db, sql, Backend::kRt, reps);
    out.push_back(s);
  }
  return out;
}

}  // namespace

bool calibrate_views(const ViewCalibrationOptions& o, plan::Calibration& c) {
  const SystemInfo sys = system_info();
  const bool gpu = !sys.gpus.empty() && sys.ray_tracing.available;
  const plan::ExecDevice dev = gpu ? plan::ExecDevice::kGpu : plan::ExecDevice::kCpu;
  const size_t d = size_t(dev);
  const double sf = o.sf > 0 ? o.sf : (gpu ? 1.0 : 0.1);
  std::string dir = o.dir;
  const bool temporary = dir.empty();
  if (temporary) dir = (std::filesystem::temp_directory_path() / ("raydb_view_calibration_" + std::to_string(::getpid()))).string();
  std::printf("rt views (%s): SSB in %s%s\n", gpu ? "gpu, OptiX" : "cpu, Embree", dir.c_str(),
              temporary ? fmt::format(" (SF {:g})", sf).c_str() : "");
  // The star formula unscaled and views uncosted while measuring (EXPLAIN prints both).
  const std::shared_ptr<const plan::Calibration> before = plan::active_calibration();
  plan::use_calibration(std::make_shared<const plan::Calibration>());
  std::vector<Sample> samples;
  uint64_t fact_rows = 0;
  try {
    Database db(ensure_ssb_database(dir, sf, 19920101, 0));
    fact_rows = db.directory().table("lineorder")->row_count();
    if (db.directory().rt_views().empty()) {
      std::string workload;
      for (const auto& q : ssb::standard_queries()) workload += ssb_query_sql(q.name) + ";\n";
      for (const RtViewAdvice& v : advise_rt_views(db, workload, "calibration_view").views) db.query(v.create_sql);
    }
    samples = measure(db, gpu ? Backend::kCuda : Backend::kCpu, o.reps);
  } catch (...) {
    plan::use_calibration(before);
    if (temporary) std::filesystem::remove_all(dir);
    throw;
  }
  plan::use_calibration(before);
  if (temporary) std::filesystem::remove_all(dir);
  if (samples.empty()) {
    std::printf("rt views: no query ran through a view; not calibrated\n");
    return false;
  }
  // view ms ~ launch + rays * ray + hits * hit + groups * group (ns).
  std::vector<std::vector<double>> X;
  std::vector<std::vector<double>> S;  // star ms ~ fixed + scale * formula
  std::vector<double> y, ys;
  for (const Sample& s : samples) {
    X.push_back({1.0, double(s.run.rays), double(s.run.hits), double(s.run.groups_traced)});
    y.push_back(s.view_ms * 1e6);
    S.push_back({1.0, s.run.star_model_ms * 1e6});
    ys.push_back(s.star_ms * 1e6);
  }
  std::vector<double> b = nonnegative_fit(X, y);
  const std::vector<double> st = nonnegative_fit(S, ys);
  const double star_fixed_ns = st[0], star_scale = st[1] > 0 ? st[1] : 1e-9;
  // Safety: no calibration query where the model would take the view but the star path
  // was measured faster. Scaling the view constants up until none is left keeps `auto`
  // on the star path wherever this machine showed it faster.
  auto model = [&](const Sample& s) {
    return (b[0] + b[1] * double(s.run.rays) + b[2] * double(s.run.hits) + b[3] * double(s.run.groups_traced)) * 1e-6;
  };
  double factor = 1;
  for (const Sample& s : samples) {
    const double view = model(s), star = star_fixed_ns * 1e-6 + s.run.star_model_ms * star_scale;
    if (s.view_ms >= s.star_ms && view < star) factor = std::max(factor, view > 0 ? star / view * 1.01 : 1e6);
  }
  if (b[1] == 0 && b[2] == 0) b[2] = 1e-3;  // the file's "measured" marker needs ray or hit cost
  for (double& x : b) x *= factor;
  c.view_launch_ns[d] = b[0];
  c.view_ray_ns[d] = b[1];
  c.view_hit_ns[d] = b[2];
  c.view_group_ns[d] = b[3];
  c.view_star_scale[d] = star_scale;
  c.view_star_fixed_ns[d] = star_fixed_ns;
  c.view_source = fmt::format("measured by raydb calibrate: the SSB queries through advised views vs the {} star path, "
                              "{} lineorder rows, {}", gpu ? "CUDA" : "CPU", fact_rows, gpu ? "OptiX" : "Embree");
  std::printf("%-6s %10s %10s %12s %12s %6s\n", "query", "star_ms", "view_ms", "model_star", "model_view", "pick");
  for (const Sample& s : samples) {
    const double view = model(s) * factor, star = star_fixed_ns * 1e-6 + s.run.star_model_ms * star_scale;
    std::printf("%-6s %10.3f %10.3f %12.3f %12.3f %6s%s\n", s.query.c_str(), s.star_ms, s.view_ms, star, view,
                view < star ? "view" : "star", (view < star) && s.view_ms >= s.star_ms ? " WRONG" : "");
  }
  std::printf("rt view constants (%s): launch %.0f ns, %.3f ns per ray, %.3f ns per primitive hit, %.1f ns per traced "
              "group; star path = %.0f ns + %.6f x the star formula%s\n",
              plan::exec_device_name(dev), b[0], b[1], b[2], b[3], star_fixed_ns, star_scale,
              factor > 1 ? fmt::format(" (view constants x{:.2f} so no star-faster query picks a view)", factor).c_str() : "");
  return true;
}

}  // namespace raydb::bench
