#pragma once
// Membership in a dense key set as a bitmap over [base, base + 64 * nwords) (a
// plan::KeySet's bitmap, copied into a program's lookup table): one load per row
// instead of a binary search of the sorted keys (20 dependent loads for a million
// keys). Host-testable: compiled for both sides.
#include <cstdint>

#include "common/host_device.h"

namespace raydb::exec::cuda::general {

// Whether bit x - base is set; false outside the span (x is a program value, int128).
RAYDB_HOST_DEVICE bool bitmap_set_contains(const int64_t* words, uint64_t nwords, int64_t base, __int128 x) {
  const __int128 off = x - __int128(base);
  if (off < 0 || off >= __int128(nwords) * 64) return false;
  const uint64_t o = uint64_t(off);
  return (uint64_t(words[o >> 6]) >> (o & 63)) & 1;
}

}  // namespace raydb::exec::cuda::general
