// RT scan indexes (USING RTSCAN) on the CUDA backend: the GPU-resident index (rt on
// OptiX, gpu-scan, gpu-sieve) answering the covered filters of every query of the CPU
// tests (tests/support/rt_scan_sql_cases.h), each method forced in turn, against
// SQLite; that the plan ran the GPU index (EXPLAIN, the executor's counter, EXPLAIN
// ANALYZE's rays and refined rows). Without a CUDA device every test reports SKIPPED;
// the rt cases also need OptiX.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <tuple>

#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/gpu_index_catalog.h"
#include "exec/index/scan_method_timings.h"
#include "raydb/raydb.h"
#include "storage/persist/database_directory.h"
#include "support/rt_scan_sql_cases.h"
#include "support/sqlite_oracle.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

bool have_gpu() { return exec::cuda::device_count() > 0; }

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

struct GpuScanDb {
  TempDir dir;
  std::unique_ptr<Database> db;
  SqliteOracle oracle;
};

GpuScanDb& gpu_scan_db() {
  static GpuScanDb* f = [] {
    auto* x = new GpuScanDb;
    auto dir = DatabaseDirectory::open_or_create(x->dir.file("db"));
    dir->commit(rt_scan_sql::make_tables(11), false);
    x->db = std::make_unique<Database>(dir);
    x->oracle.load_database(*dir);
    x->db->query("create index t_rs on t (a, b, c, d, s, e) using rtscan");
    return x;
  }();
  return *f;
}

QueryOptions forced(const char* method) {
  QueryOptions o;
  o.backend = Backend::kCuda;
  o.settings.set("index_paths", "force");
  o.settings.set("rt_scan_method", method);
  return o;
}

std::vector<const char*> gpu_methods() {
  std::vector<const char*> m = {"gpu-scan", "gpu-sieve"};
  if (exec::cuda::gpu_index_supported(plan::IndexKind::kRt, nullptr)) m.push_back("rt");  // OptiX
  return m;
}

TEST(GpuRtScanSql, EveryMethodMatchesSqlite) {
  REQUIRE_GPU();
  GpuScanDb& f = gpu_scan_db();
  for (const char* method : gpu_methods()) {
    const QueryOptions o = forced(method);
    for (const char* sql : rt_scan_sql::kCovered) {
      SCOPED_TRACE(std::string(method) + ": " + sql);
      const uint64_t before = exec::cuda::gpu_index_use().scans;
      EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, o));
      const std::string plan = f.db->query(std::string("explain ") + sql, o).explain;
      EXPECT_EQ(plan.rfind("backend: cuda", 0), 0u) << plan;
      EXPECT_NE(plan.find("rt scan t via t_rs (rtscan-gpu, " + std::string(method) + ";"), std::string::npos) << plan;
      EXPECT_GT(exec::cuda::gpu_index_use().scans, before);
    }
    for (const char* sql : rt_scan_sql::kNulls) {
      SCOPED_TRACE(std::string(method) + ": " + sql);
      EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, o));
    }
  }
}

// EXPLAIN ANALYZE reports what the index did: jobs, residual rows, and for the OptiX
// method the rays launched and the rows their cells held.
TEST(GpuRtScanSql, ExplainAnalyzeShowsTheScan) {
  REQUIRE_GPU();
  GpuScanDb& f = gpu_scan_db();
  const char* sql = "explain analyze select count(*) from t where a between 10 and 500 and b <= 0 and c < DATE '1993-01-01'";
  for (const char* method : gpu_methods()) {
    SCOPED_TRACE(method);
    const std::string text = f.db->query(sql, forced(method)).explain;
    EXPECT_NE(text.find("rt scan via t_rs (" + std::string(method) + "): "), std::string::npos) << text;
    EXPECT_NE(text.find(" rows refined; device "), std::string::npos) << text;
    if (std::string(method) == "rt") EXPECT_EQ(text.find(" 0 rays,"), std::string::npos) << text;
  }
}

// The measured refinement on the GPU methods: with a margin that makes every method a
// candidate, the first runs explore the runners-up, one times the model's pick, near-ties
// run until settled (ScanMethodTimings::kSettleRuns each), then every run takes the
// fastest measured; every run matches SQLite.
TEST(GpuRtScanSql, NearTieSettledByMeasurement) {
  REQUIRE_GPU();
  GpuScanDb& f = gpu_scan_db();
  exec::ScanMethodTimings::shared().clear();
  const std::string sql = "select count(*), sum(id) from t where a between 10 and 500 and b <= 0 and d < 20000";
  QueryOptions o;
  o.backend = Backend::kCuda;
  o.settings.set("index_paths", "force");
  o.settings.set("rt_scan_adaptive_margin", "10");
  const std::regex re("rt scan t via t_rs \\(rtscan-gpu, ([a-z-]+);.*; method \\1 \\(([a-z]+)");
  auto run = [&]() {
    const std::string plan = f.db->query("explain " + sql, o).explain;
    std::smatch m;
    EXPECT_TRUE(std::regex_search(plan, m, re)) << plan;
    EXPECT_TRUE(matches_sqlite(*f.db, f.oracle, sql, o));
    return m.size() == 3 ? std::pair(m[1].str(), m[2].str()) : std::pair(std::string(), std::string());
  };
  std::vector<std::string> sources;
  std::set<std::string> tried;
  auto [method, source] = run();
  for (int i = 0; i < 14 && source != "measured"; i++) {
    sources.push_back(source);
    tried.insert(method);
    std::tie(method, source) = run();
  }
  ASSERT_GE(sources.size(), 2u);
  EXPECT_EQ(sources[0], "explore");
  EXPECT_EQ(std::count(sources.begin(), sources.end(), "model"), 1);  // the pick, timed once before settling
  EXPECT_GE(tried.size(), 2u);
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(source, "measured");
    EXPECT_TRUE(tried.count(method)) << method;
    std::tie(method, source) = run();
  }
}

}  // namespace
}  // namespace raydb::test
