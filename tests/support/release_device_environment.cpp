#include "support/release_device_environment.h"

#include <cstdio>

#include "raydb/system.h"

namespace raydb::test {

void ReleaseDeviceEnvironment::TearDown() {
  if (const uint64_t held = release_gpu_memory())
    std::fprintf(stderr, "device memory still held after the tests: %llu bytes\n", (unsigned long long)held);
}

}  // namespace raydb::test
