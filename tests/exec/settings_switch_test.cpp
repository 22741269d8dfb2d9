// On/off settings from the environment: "off" means off, as in SET (before, only a
// value starting with '0' turned a default-on switch off from the environment).
#include <gtest/gtest.h>

#include <cstdlib>

#include "common/settings.h"

namespace raydb {
namespace {

bool passes_with_env(const char* value) {
  setenv("RAYDB_CUDA_FILTER_PASSES", value, 1);
  Settings::reset_default("cuda_filter_passes");
  const bool on = Settings().cuda_filter_passes();
  unsetenv("RAYDB_CUDA_FILTER_PASSES");
  Settings::reset_default("cuda_filter_passes");
  return on;
}

TEST(SettingsSwitch, EnvironmentOnAndOffMeanWhatTheySay) {
  EXPECT_TRUE(Settings().cuda_filter_passes());  // the default
  EXPECT_FALSE(passes_with_env("off"));
  EXPECT_FALSE(passes_with_env("false"));
  EXPECT_FALSE(passes_with_env("0"));
  EXPECT_TRUE(passes_with_env("on"));
  EXPECT_TRUE(passes_with_env("1"));
  EXPECT_TRUE(Settings().cuda_filter_passes());
  // A default-off switch turned on and off from the environment.
  setenv("RAYDB_CUDA_PROFILE", "off", 1);
  Settings::reset_default("cuda_profile");
  EXPECT_FALSE(Settings().cuda_profile());
  setenv("RAYDB_CUDA_PROFILE", "on", 1);
  Settings::reset_default("cuda_profile");
  EXPECT_TRUE(Settings().cuda_profile());
  unsetenv("RAYDB_CUDA_PROFILE");
  Settings::reset_default("cuda_profile");
  EXPECT_FALSE(Settings().cuda_profile());
}

}  // namespace
}  // namespace raydb
