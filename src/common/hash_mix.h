#pragma once
// Murmur3's 64-bit finalizer: a bijection that spreads every input bit over the word,
// so dense, strided or high-bit-only keys (multiples of 2^32, say) still spread over a
// hash table's low-bit slot index. One definition for the CPU and GPU hash indexes,
// the GPU hash join and the GPU GROUP BY table.
#include <cstdint>

#include "common/host_device.h"

namespace raydb {

RAYDB_HOST_DEVICE uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

}  // namespace raydb
