#pragma once
// Murmur3's finalizers (64- and 32-bit): each a bijection that spreads every input bit over the word,
// so dense, strided or high-bit-only keys (multiples of 2^32, say) still spread over a
// hash table's low-bit slot index. One definition for the CPU and GPU hash indexes,
// the GPU hash join and the GPU GROUP BY table (fmix64), and the RT scan's tie order
// (fmix32: rows are 32-bit and ties need a total order, so the mixer must stay a
// bijection on 32 bits).
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

RAYDB_HOST_DEVICE uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

}  // namespace raydb
