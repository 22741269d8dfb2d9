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

// Loads the stored values of the selected rows of a tile into registers. Reading a
// whole vector past the last row stays inside the buffer: device buffers are
// rounded up to 256 bytes and vectors are aligned to their size.
template <typename T, typename V>
__device__ __forceinline__ void load_tile(const void* data, uint64_t base, const bool (&flag)[kItems],
                                          V (&out)[kItems]) {
  constexpr int kPer = 16 / int(sizeof(T));  // items per 16-byte vector
  const uint4* d = reinterpret_cast<const uint4*>(static_cast<const T*>(data) + thread_row(base));
#pragma unroll
  for (int v = 0; v < kItems / kPer; v++) {
    bool any = false;
#pragma unroll
    for (int j = 0; j < kPer; j++) any |= flag[v * kPer + j];
    uint4 x = make_uint4(0, 0, 0, 0);
    if (any) x = __ldg(d + v);
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

}  // namespace raydb::exec::cuda::block
