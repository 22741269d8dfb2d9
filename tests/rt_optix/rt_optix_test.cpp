// test_rt_optix (CTest label gpu): every RT index case of test_rt on the OptiX tracer,
// checked against brute force like on Embree. Without a CUDA device, an OptiX driver
// or an OptiX build, each case is reported as skipped (never as passed).
#include "rt/rt_index_cases.h"

namespace raydb::rt_cases {
namespace {

bool optix_available(std::string* why) {
  const rt::OptixDeviceInfo& i = rt::optix_device_info();
  if (!i.available) *why = i.reason;
  return i.available;
}
INSTANTIATE_TEST_SUITE_P(OptiX, RtTracerTest,
                         ::testing::Values(TracerKind{"optix", rt::make_optix_tracer, optix_available}),
                         tracer_kind_name);

TEST(OptixInfo, ReportsRtCores) {
  const rt::OptixDeviceInfo& i = rt::optix_device_info();
  if (!i.available) GTEST_SKIP() << i.reason;
  std::printf("OptiX device: %s, RT core version %u\n", i.device.c_str(), i.rtcore_version);
  EXPECT_FALSE(i.device.empty());
}

}  // namespace
}  // namespace raydb::rt_cases
