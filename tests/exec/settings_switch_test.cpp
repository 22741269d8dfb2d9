// On/off settings from the environment: "off" means off, as in SET (before, only a
// value starting with '0' turned a default-on switch off from the environment).
#include <gtest/gtest.h>

#include <cstdlib>

#include "common/error.h"
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
// cuda_perfect_set_min: a key count from 0 to 128, nothing else.
TEST(SettingsSwitch, PerfectSetMinIsAKeyCount) {
  Settings s;
  for (const char* ok : {"0", "4", "128"}) {
    s.set("cuda_perfect_set_min", ok);
    EXPECT_EQ(s.get("cuda_perfect_set_min"), ok);
  }
  for (const char* bad : {"129", "-1", "4x", "", "1000"}) EXPECT_THROW(s.set("cuda_perfect_set_min", bad), Error) << bad;
}

// cuda_few_groups: a group count from 0 to 15, nothing else.
TEST(SettingsSwitch, FewGroupsIsAGroupCount) {
  Settings s;
  for (const char* ok : {"0", "8", "15"}) {
    s.set("cuda_few_groups", ok);
    EXPECT_EQ(s.get("cuda_few_groups"), ok);
  }
  for (const char* bad : {"16", "64", "-1", "8x", "", "100"}) EXPECT_THROW(s.set("cuda_few_groups", bad), Error) << bad;
}

}  // namespace raydb
