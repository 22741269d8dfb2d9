#pragma once
// Atomics of the RT view program on both tracers: CUDA atomics on the device,
// GCC __atomic builtins on the host (Embree runs the program on OpenMP threads).
#include "rt/mapping/host_device.h"

namespace raydb::rt::mapping {

RAYDB_HOST_DEVICE uint64_t view_atomic_add(uint64_t* p, uint64_t v) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

// A 128-bit two's-complement integer as two 64-bit words (device code has no
// __int128 under OptiX); exact sums of int64 values.
struct ViewI128 {
  uint64_t lo;
  uint64_t hi;
  RAYDB_HOST_DEVICE void add(int64_t v) {
    const uint64_t u = static_cast<uint64_t>(v);
    const uint64_t n = lo + u;
    hi += (n < lo ? 1u : 0u) + (v < 0 ? ~uint64_t{0} : 0u);  // carry, sign extension
    lo = n;
  }
};

// Adds x to the words (low, high) at `words`. The low word is added atomically; its
// carry (new low < added value) goes into the high word with x's high word.
// Addition mod 2^128 is associative, so the words end exact in any order of adds.
RAYDB_HOST_DEVICE void view_atomic_add128(uint64_t* words, const ViewI128& x) {
  const uint64_t old = view_atomic_add(words, x.lo);
  const uint64_t carry = (old + x.lo < old) ? 1u : 0u;
  if (x.hi + carry != 0) view_atomic_add(words + 1, x.hi + carry);
}

RAYDB_HOST_DEVICE void view_atomic_min(int64_t* p, int64_t v) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
#else
  int64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

RAYDB_HOST_DEVICE void view_atomic_max(int64_t* p, int64_t v) {
#if defined(__CUDA_ARCH__)
  atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v));
#else
  int64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

// Sets bit i; true when it was already set.
RAYDB_HOST_DEVICE bool view_test_and_set(uint32_t* bits, uint32_t i) {
  const uint32_t m = 1u << (i & 31);
#if defined(__CUDA_ARCH__)
  return (atomicOr(bits + (i >> 5), m) & m) != 0;
#else
  return (__atomic_fetch_or(bits + (i >> 5), m, __ATOMIC_RELAXED) & m) != 0;
#endif
}

}  // namespace raydb::rt::mapping
