#pragma once
// BlockLoad: a tile of TILE = kBlock * kItems rows per thread block; thread t holds
// the kItems consecutive rows base + t * kItems + i ("blocked"), read with 16-byte
// vector loads, so narrow columns (1- and 2-byte) move 16 bytes per load
// instruction and a warp reads 512 consecutive bytes. A vector is loaded only when
// one of its rows is still selected: once filters and probes have dropped most
// rows, later columns are read only where a selected row lives.
#include <cstdint>

#include "exec/cuda/kernel_params.h"

namespace raydb::exec::cuda::block {

constexpr int kBlock = 256;
constexpr int kItems = 16;
constexpr int kTile = kBlock * kItems;

template <typename T>
__device__ __forceinline__ uint64_t ldg(const void* p, uint64_t i) {
  return uint64_t(__ldg(static_cast<const T*>(p) + i));
}

// Stored (narrow, unsigned) value of one row.
__device__ __forceinline__ uint64_t load_stored(const DevColumn& c, uint64_t row) {
  switch (c.width) {
    case 1: return ldg<unsigned char>(c.data, row);
    case 2: return ldg<unsigned short>(c.data, row);
    case 4: return ldg<unsigned int>(c.data, row);
    default: return ldg<unsigned long long>(c.data, row);
  }
}

// The SQL value (stored integer form) of a stored word: base + offset, or the
// dictionary entry. Both are exact by construction (column_cache.cpp).
__device__ __forceinline__ int64_t value_of(const DevColumn& c, uint64_t s) {
  return c.decode ? __ldg(c.decode + s) : int64_t(uint64_t(c.base) + s);
}

// The first row of this thread's items in the tile at `base`.
__device__ __forceinline__ uint64_t thread_row(uint64_t base) { return base + uint64_t(threadIdx.x) * kItems; }

// Loads the stored values of the selected rows of a tile into registers, from the
// thread's first row `p0` (global memory through the read-only path, or a shared
// staging buffer when SH). Reading a whole vector past the last row stays inside the
// buffer: device buffers are rounded up to 256 bytes and vectors are aligned to their
// size (staging buffers hold whole 16-byte vectors).
template <typename T, typename V, bool SH>
__device__ __forceinline__ void load_vecs(const T* p0, const bool (&flag)[kItems], V (&out)[kItems]) {
  constexpr int kPer = 16 / int(sizeof(T));  // items per 16-byte vector
  const uint4* d = reinterpret_cast<const uint4*>(p0);
#pragma unroll
  for (int v = 0; v < kItems / kPer; v++) {
    bool any = false;
#pragma unroll
    for (int j = 0; j < kPer; j++) any |= flag[v * kPer + j];
    uint4 x = make_uint4(0, 0, 0, 0);
    if (any) x = SH ? d[v] : __ldg(d + v);
    const uint32_t w[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
    for (int j = 0; j < kPer; j++) {
      if constexpr (sizeof(T) == 8) {
        out[v * kPer + j] = V(uint64_t(w[2 * j]) | (uint64_t(w[2 * j + 1]) << 32));
      } else {
        constexpr int kBits = int(sizeof(T)) * 8;
        constexpr int kPerWord = 32 / kBits;
        const uint32_t word = w[j / kPerWord];
        out[v * kPer + j] = kBits == 32 ? word : (word >> ((j % kPerWord) * kBits)) & ((1u << (kBits & 31)) - 1u);
      }
    }
  }
}

template <typename T, typename V>
__device__ __forceinline__ void load_tile(const void* data, uint64_t base, const bool (&flag)[kItems],
                                          V (&out)[kItems]) {
  load_vecs<T, V, false>(static_cast<const T*>(data) + thread_row(base), flag, out);
}

// Dispatches on the stored width once per tile, not per row. V is uint32_t when the
// host proved every fact column is at most 4 bytes wide (launch_star), else uint64_t.
template <typename V>
__device__ __forceinline__ void with_width(const DevColumn& c, uint64_t base, const bool (&flag)[kItems],
                                           V (&out)[kItems]) {
  switch (c.width) {
    case 1: load_tile<unsigned char>(c.data, base, flag, out); break;
    case 2: load_tile<unsigned short>(c.data, base, flag, out); break;
    case 4: load_tile<unsigned int>(c.data, base, flag, out); break;
    default:
      if constexpr (sizeof(V) == 8) load_tile<unsigned long long>(c.data, base, flag, out);
      break;
  }
}

// Asks the L2 to fetch `bytes` (a multiple of 16, 16-byte aligned) at `p` without
// waiting: one instruction per column per tile (Hopper's bulk prefetch). A hint only.
__device__ __forceinline__ void prefetch_l2(const void* p, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
#else
  (void)p;
  (void)bytes;
#endif
}

// A column's tile in a shared staging buffer `s` (its row 0 at s), 32-bit values.
template <typename V>
__device__ __forceinline__ void with_width_shared(int width, const char* s, const bool (&flag)[kItems],
                                                  V (&out)[kItems]) {
  const unsigned t = threadIdx.x * kItems;
  switch (width) {
    case 1: load_vecs<unsigned char, V, true>(reinterpret_cast<const unsigned char*>(s) + t, flag, out); break;
    case 2: load_vecs<unsigned short, V, true>(reinterpret_cast<const unsigned short*>(s) + t, flag, out); break;
    default: load_vecs<unsigned int, V, true>(reinterpret_cast<const unsigned int*>(s) + t, flag, out); break;
  }
}

// One stored value at row r of a staged tile (widths 1, 2, 4).
__device__ __forceinline__ uint64_t load_stored_shared(int width, const char* s, unsigned r) {
  switch (width) {
    case 1: return reinterpret_cast<const unsigned char*>(s)[r];
    case 2: return reinterpret_cast<const unsigned short*>(s)[r];
    default: return reinterpret_cast<const unsigned int*>(s)[r];
  }
}

// Loads column c's tile either from global memory (SH false: `s` unused) or from the
// block's shared staging buffer.
template <typename V, bool SH>
__device__ __forceinline__ void col_tile(const DevColumn& c, uint64_t base, const char* s, const bool (&flag)[kItems],
                                         V (&out)[kItems]) {
  if constexpr (SH)
    with_width_shared(c.width, s, flag, out);
  else
    with_width(c, base, flag, out);
}

// Hopper bulk copies into shared memory, completing on an mbarrier (one per stage).
// Only sm_90 code issues them; the portable path (compute_75 PTX) fills stages with
// ordinary loads (stage_fill_sync in kernels.cu).
__device__ __forceinline__ uint32_t smem_addr(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  (void)bar;
  (void)count;
#endif
}

__device__ __forceinline__ void mbar_expect_tx(unsigned long long* bar, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
#else
  (void)bar;
  (void)bytes;
#endif
}

// bytes: a multiple of 16; src and dst 16-byte aligned.
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, uint32_t bytes, unsigned long long* bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
#else
  (void)dst;
  (void)src;
  (void)bytes;
  (void)bar;
#endif
}

__device__ __forceinline__ void mbar_wait(unsigned long long* bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t done = 0;
  do {
    asm volatile(
        "{ .reg .pred P; mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2; selp.u32 %0, 1, 0, P; }"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  } while (!done);
#else
  (void)bar;
  (void)parity;
#endif
}

// Orders this thread's earlier generic-proxy accesses to shared memory before later
// async-proxy (bulk copy) writes to it.
__device__ __forceinline__ void fence_proxy_async() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

}  // namespace raydb::exec::cuda::block
