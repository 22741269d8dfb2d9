#pragma once
// A gtest environment for the GPU test binaries: after the last test it drops what the
// process caches on the device (resident columns, GPU indexes, the memory pool's free
// blocks), so a leak checker (compute-sanitizer --leak-check full) reports only memory
// that something still holds, and says on stderr how much that is.
#include <gtest/gtest.h>

namespace raydb::test {

class ReleaseDeviceEnvironment : public ::testing::Environment {
 public:
  void TearDown() override;
};

}  // namespace raydb::test
