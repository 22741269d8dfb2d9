// `auto` with the cost of moving data to the GPU (plan/physical/transfer_cost.h) on a
// real device: columns not resident and a calibration under which the copy costs more
// than the CPU's run send the query to the CPU (EXPLAIN says why); transfer_cost=off
// keeps the GPU; once the columns are resident `auto` runs on the GPU again. Every
// answer equals the CPU backend's.
#include <gtest/gtest.h>

#include <memory>

#include "exec/cuda/cuda_backend.h"
#include "plan/physical/calibration.h"
#include "plan/physical/cost_model.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

// Restores the cost model's calibration (the file's, when there is one) at the end.
struct CalibrationOverride {
  explicit CalibrationOverride(plan::Calibration c) {
    plan::use_calibration(std::make_shared<const plan::Calibration>(std::move(c)));
  }
  ~CalibrationOverride() { plan::reload_calibration(); }
};

TEST(GpuTransferCost, OneShotGoesToTheCpuUntilTheDataIsResident) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  // A database object of its own: its columns are new objects, not resident yet.
  auto db = Database::open(f.path);
  plan::Calibration c;
  c.cpu_threads = 1;
  c.cpu_read_gbs = 10;
  c.gpu_read_gbs = 3000;
  c.host_to_device_gbs = 0.001;  // a 1 MB/s link: any upload loses to the CPU
  c.gpu_first_use_ms = 100;
  CalibrationOverride use(c);
  const std::string sql =
      "select sum(lo_extendedprice * lo_discount) as revenue from lineorder, date where lo_orderdate = d_datekey "
      "and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25";
  const QueryResult cpu = db->query(sql, QueryOptions{Backend::kCpu, 0, {}});

  const std::string plan = db->query("explain " + sql, QueryOptions{Backend::kAuto, 0, {}}).explain;
  EXPECT_NE(plan.find("the CPU answers sooner end to end"), std::string::npos) << plan;
  QueryResult one_shot = db->query(sql, QueryOptions{Backend::kAuto, 0, {}});
  EXPECT_EQ(one_shot.backend, "cpu");
  EXPECT_TRUE(same(cpu, one_shot, sql));

  QueryOptions keep{Backend::kAuto, 0, {}};
  keep.settings.set("transfer_cost", "off");
  QueryResult kept = db->query(sql, keep);
  EXPECT_EQ(kept.backend, "cuda");
  EXPECT_TRUE(same(cpu, kept, sql));

  // Resident now: nothing to move, so `auto` takes the GPU under the same calibration.
  QueryResult hot = db->query(sql, QueryOptions{Backend::kAuto, 0, {}});
  EXPECT_EQ(hot.backend, "cuda");
  EXPECT_TRUE(same(cpu, hot, sql));
}

}  // namespace
}  // namespace raydb::test
