// test_rt_optix (CTest label gpu): the RT view cases of test_rt on the OptiX tracer,
// against brute force, and the 13 SSB queries against the CPU backend (SF 0.01, and
// SF 1 when RAYDB_SSB_SF1_DB names a database). Skipped without a GPU.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "access/rt_view/view_bench.h"
#include "rt/rt_view_cases.h"
#include "rt/rt_view_ssb_cases.h"

namespace raydb::rtview_cases {
namespace {

bool optix_ok(std::string* why) {
  const rt::OptixDeviceInfo& i = rt::optix_device_info();
  if (!i.available) *why = i.reason;
  return i.available;
}

TEST_P(RtViewTest, RandomRequestsMatchBruteForce) { run_random_requests(*tracer_, 11); }
TEST_P(RtViewTest, BoundariesOfTheEncodings) { run_boundaries(*tracer_); }
TEST_P(RtViewTest, ZDigitsDecodedFromTheHitDistance) { run_z_decoding(*tracer_); }
TEST_P(RtViewTest, GroupPruningBoundaries) { run_group_pruning(*tracer_); }
TEST_P(RtViewTest, SsbQueriesEqualTheCpuBackend) {
  int done = 0;
  run_ssb_flights(*tracer_, "0.01", &done);
  EXPECT_EQ(done, 39);
}
TEST_P(RtViewTest, SsbSf1QueriesEqualTheCpuBackend) {
  if (std::getenv("RAYDB_SSB_SF1_DB") == nullptr) GTEST_SKIP() << "RAYDB_SSB_SF1_DB not set";
  int done = 0;
  run_ssb_flights(*tracer_, "1", &done);
  EXPECT_EQ(done, 39);
}
TEST_P(RtViewTest, PerRayAndPerHitAccumulationAgree) {
  const StarTables s = synthetic_star(5, 200000);
  const auto rows = materialize_view(synthetic_definition(), s.resolver());
  const RtView view(rows, *tracer_);
  EXPECT_GT(view.stats().device_bytes, 0u);
  ViewRequest r;
  r.aggregates = {{AggKind::kSum, 0}, {AggKind::kCount, 0}};
  const AccumulationTiming t = bench_accumulation(view, r, 3);
  EXPECT_TRUE(t.equal);
  // Every primitive is hit once: a row, or a merged tuple of rows (view_primitives.h).
  EXPECT_EQ(t.hits, view.stats().primitives);
  EXPECT_LE(view.stats().primitives, rows->rows);
  std::printf("no GROUP BY, %llu hits, %llu rays: per-ray %.3f ms, per-hit %.3f ms\n",
              static_cast<unsigned long long>(t.hits), static_cast<unsigned long long>(t.rays), t.per_ray_ms,
              t.per_hit_ms);
}

INSTANTIATE_TEST_SUITE_P(OptiX, RtViewTest,
                         ::testing::Values(ViewTracerKind{"optix", rt::make_optix_tracer, optix_ok}),
                         view_tracer_name);

}  // namespace
}  // namespace raydb::rtview_cases
