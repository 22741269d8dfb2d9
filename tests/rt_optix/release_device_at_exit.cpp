// Registers the environment that frees the process's device caches after the last
// test (support/release_device_environment.h), so leak checks see only real leaks.
#include "support/release_device_environment.h"

namespace {
[[maybe_unused]] ::testing::Environment* const kReleaseDevice =
    ::testing::AddGlobalTestEnvironment(new raydb::test::ReleaseDeviceEnvironment());
}  // namespace
