#include "common/parallel_copy.h"

#include <algorithm>
#include <cstring>

namespace raydb {

void parallel_copy(void* dst, const void* src, uint64_t bytes) {
  constexpr uint64_t kChunk = uint64_t(1) << 18;
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  const long chunks = long((bytes + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (long c = 0; c < chunks; c++) {
    const uint64_t at = uint64_t(c) * kChunk;
    std::memcpy(d + at, s + at, std::min(kChunk, bytes - at));
  }
}

}  // namespace raydb
