// `auto` and the cost of moving data to the GPU: the transfer model's decision under a
// calibration (plan/physical/transfer_cost.h), and the query driver handing a plan on
// when a backend defers it (forced backends never defer).
#include <gtest/gtest.h>

#include <memory>

#include "exec/backend.h"
#include "exec/query_driver.h"
#include "plan/physical/calibration.h"
#include "plan/physical/transfer_cost.h"

namespace raydb::plan {
namespace {

// A 16-core host with a PCIe link: 60 GB/s CPU reads, 25 GB/s host to device, 100 ms
// for the device's first use in a process.
Calibration machine() {
  Calibration c;
  c.cpu = "test cpu";
  c.cpu_threads = 16;
  c.cpu_read_gbs = 60;
  c.gpu = "test gpu";
  c.gpu_read_gbs = 3000;
  c.host_to_device_gbs = 25;
  c.gpu_first_use_ms = 100;
  return c;
}

// SSB q1.1 at SF 20: four 4-byte lineorder columns of 120M rows, narrowed to 1-2 bytes.
TransferWork one_shot_q11() {
  TransferWork w;
  w.scan_bytes = 4 * 4 * uint64_t(120000000);
  w.upload_host_bytes = w.scan_bytes;
  w.upload_bytes = 6 * uint64_t(120000000);
  w.device_ms = 0.7;
  return w;
}

TEST(TransferCost, WithoutCpuOrLinkBandwidthItAdvisesNothing) {
  Calibration c = machine();
  c.cpu_read_gbs = 0;
  EXPECT_FALSE(estimate_transfer(one_shot_q11(), &c).calibrated);
  EXPECT_FALSE(estimate_transfer(one_shot_q11(), &c).cpu_sooner());
  c = machine();
  c.host_to_device_gbs = 0;
  EXPECT_FALSE(estimate_transfer(one_shot_q11(), &c).cpu_sooner());
}

TEST(TransferCost, OneShotQueryGoesToTheCpuResidentDataStaysOnTheGpu) {
  const Calibration c = machine();
  const TransferEstimate cold = estimate_transfer(one_shot_q11(), &c);
  ASSERT_TRUE(cold.calibrated);
  // GPU: first use + the narrowing pass (1.5 passes over 1.92 GB at 60 GB/s: 48 ms,
  // longer than the 0.72 GB copy at 25 GB/s: 28.8 ms) + kernels.
  EXPECT_NEAR(cold.gpu_ms, 100 + 48 + 0.7, 1e-6);
  // CPU: two passes' worth over the 1.92 GB it reads.
  EXPECT_NEAR(cold.cpu_ms, 64, 1e-6);
  EXPECT_TRUE(cold.cpu_sooner());

  TransferWork hot = one_shot_q11();
  hot.upload_bytes = hot.upload_host_bytes = 0;  // resident: nothing to move
  hot.device_ready = true;
  EXPECT_FALSE(estimate_transfer(hot, &c).cpu_sooner());
}

TEST(TransferCost, TheDecisionFollowsTheCalibration) {
  TransferWork w = one_shot_q11();
  w.device_ready = true;  // a later query of the same process: no first use
  Calibration c = machine();
  // 48.7 ms on the GPU (narrowing-bound) against 64 on the CPU.
  EXPECT_FALSE(estimate_transfer(w, &c).cpu_sooner());
  // A slow link (5 GB/s: 144 ms of copying) makes the CPU sooner.
  c.host_to_device_gbs = 5;
  EXPECT_TRUE(estimate_transfer(w, &c).cpu_sooner());
  // A query limited to 2 of the 16 calibrated threads reads 8x slower on the CPU.
  w.threads = 2;
  EXPECT_FALSE(estimate_transfer(w, &c).cpu_sooner());
  // A faster link never turns a GPU choice into a CPU one.
  w.threads = 0;
  bool was_gpu = false;
  for (double gbs : {1.0, 2.0, 5.0, 10.0, 25.0, 50.0, 100.0}) {
    c.host_to_device_gbs = gbs;
    const bool gpu = !estimate_transfer(w, &c).cpu_sooner();
    EXPECT_TRUE(gpu || !was_gpu) << gbs;
    was_gpu = gpu;
  }
  EXPECT_TRUE(was_gpu);
}

TEST(TransferCost, FirstUseIsStoredInTheCalibrationFile) {
  const Calibration c = machine();
  const Calibration back = Calibration::from_json(nlohmann::json::parse(c.to_json().dump()));
  EXPECT_DOUBLE_EQ(back.gpu_first_use_ms, 100);
  EXPECT_DOUBLE_EQ(transfer_constants(&back).gpu_first_use_ms, 100);
  // Files written before it existed read as not measured (the model's estimate applies).
  nlohmann::json old = c.to_json();
  old.erase("gpu_first_use_ms");
  EXPECT_DOUBLE_EQ(Calibration::from_json(old).gpu_first_use_ms, 0);
  EXPECT_GT(transfer_constants(nullptr).gpu_first_use_ms, 0);
}

}  // namespace
}  // namespace raydb::plan

namespace raydb::exec {
namespace {

// A backend that admits everything, may defer under auto, and names itself in results.
class FakeBackend final : public Backend {
 public:
  FakeBackend(plan::BackendKind kind, bool defers, bool has_device = true)
      : kind_(kind), defers_(defers), has_device_(has_device) {}
  plan::BackendKind kind() const override { return kind_; }
  std::optional<Rejection> unavailable() const override {
    probes++;
    if (has_device_) return std::nullopt;
    return Rejection{ErrorKind::kNotImplemented, "no device here"};
  }
  bool honours(AccessPolicy) const override { return true; }
  std::optional<Rejection> admit(plan::PhysicalPlan&, const Settings&) const override { return std::nullopt; }
  std::optional<Rejection> defer(const plan::PhysicalPlan&, const Settings&, int threads) const override {
    last_threads = threads;
    if (!defers_) return std::nullopt;
    return Rejection{ErrorKind::kNotImplemented, "the CPU answers sooner end to end"};
  }
  void choose_access_paths(plan::PhysicalPlan&, const std::vector<IndexOnTable>&, AccessPolicy,
                           const Settings&) const override {}
  ResultTable execute(const plan::PhysicalPlan&, const ExecOptions&) const override {
    ResultTable r;
    r.profile = plan::backend_kind_name(kind_);
    return r;
  }
  mutable int last_threads = -1;
  mutable int probes = 0;  // unavailable() calls: the device probe a real backend waits for

 private:
  plan::BackendKind kind_;
  bool defers_, has_device_;
};

TEST(TransferCost, DriverHandsADeferredPlanOnUnderAutoOnly) {
  auto gpu = std::make_shared<FakeBackend>(plan::BackendKind::kCuda, true);
  auto cpu = std::make_shared<FakeBackend>(plan::BackendKind::kCpu, true);  // the last: never asked
  QueryDriver driver({gpu, cpu});
  ExecOptions options;

  plan::PhysicalPlan p;
  ExecutionRequest automatic;
  automatic.threads = 3;
  EXPECT_EQ(driver.run(p, automatic, {}, options).profile, "cpu");
  EXPECT_EQ(p.backend, plan::BackendKind::kCpu);
  ASSERT_EQ(p.rejected_backends.size(), 1u);
  EXPECT_NE(p.rejected_backends[0].find("cuda: the CPU answers sooner"), std::string::npos);
  EXPECT_EQ(gpu->last_threads, 3);
  EXPECT_EQ(cpu->last_threads, -1);

  plan::PhysicalPlan forced_plan;
  ExecutionRequest forced;
  forced.backend = plan::BackendKind::kCuda;
  EXPECT_EQ(driver.run(forced_plan, forced, {}, options).profile, "cuda");

  auto keeps = std::make_shared<FakeBackend>(plan::BackendKind::kCuda, false);
  QueryDriver keeping({keeps, cpu});
  plan::PhysicalPlan q;
  EXPECT_EQ(keeping.run(q, automatic, {}, options).profile, "cuda");
  EXPECT_TRUE(q.rejected_backends.empty());
}

// Under auto, a plan the GPU backend hands on never waits for its device probe (the
// CUDA driver's start-up); a forced backend still says first that it has no device.
TEST(TransferCost, AutoAsksForTheDeviceOnlyWhenThePlanStaysOnIt) {
  auto gpu = std::make_shared<FakeBackend>(plan::BackendKind::kCuda, true);
  auto cpu = std::make_shared<FakeBackend>(plan::BackendKind::kCpu, false);
  QueryDriver driver({gpu, cpu});
  ExecOptions options;
  plan::PhysicalPlan p;
  EXPECT_EQ(driver.run(p, ExecutionRequest{}, {}, options).profile, "cpu");
  EXPECT_EQ(gpu->probes, 0);

  auto keeps = std::make_shared<FakeBackend>(plan::BackendKind::kCuda, false);
  QueryDriver keeping({keeps, cpu});
  plan::PhysicalPlan q;
  EXPECT_EQ(keeping.run(q, ExecutionRequest{}, {}, options).profile, "cuda");
  EXPECT_EQ(keeps->probes, 1);

  // No device: auto moves on with the device's reason; forced fails with it.
  auto absent = std::make_shared<FakeBackend>(plan::BackendKind::kCuda, false, false);
  QueryDriver missing({absent, cpu});
  plan::PhysicalPlan r;
  EXPECT_EQ(missing.run(r, ExecutionRequest{}, {}, options).profile, "cpu");
  ASSERT_EQ(r.rejected_backends.size(), 1u);
  EXPECT_NE(r.rejected_backends[0].find("cuda: no device here"), std::string::npos);
  plan::PhysicalPlan f;
  ExecutionRequest forced;
  forced.backend = plan::BackendKind::kCuda;
  try {
    missing.run(f, forced, {}, options);
    ADD_FAILURE() << "a forced backend without a device ran the plan";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no device here"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace raydb::exec
