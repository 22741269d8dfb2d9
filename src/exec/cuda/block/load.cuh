#pragma once
// BlockLoad: a tile of TILE = kBlock * kItems rows per thread block; thread t holds
// rows base + i * kBlock + t (i < kItems), so each load instruction of a warp reads
// consecutive rows (coalesced). Loads are predicated on the row's selection flag:
// once filters and probes have dropped most rows, later columns are read only in
// the 32-byte sectors that still hold a selected row.
#include <cstdint>

#include "exec/cuda/kernel_params.h"

namespace raydb::exec::cuda::block {

constexpr int kBlock = 256;
constexpr int kItems = 8;
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

// Loads the stored values of the selected rows of a tile into registers.
template <typename T>
__device__ __forceinline__ void load_tile(const void* data, uint64_t base, const bool (&flag)[kItems],
                                          uint64_t (&out)[kItems]) {
  const T* d = static_cast<const T*>(data);
#pragma unroll
  for (int i = 0; i < kItems; i++) out[i] = flag[i] ? uint64_t(__ldg(d + base + uint64_t(i) * kBlock + threadIdx.x)) : 0;
}

// Dispatches on the stored width once per tile, not per row.
template <typename F>
__device__ __forceinline__ void with_width(const DevColumn& c, uint64_t base, const bool (&flag)[kItems],
                                           uint64_t (&out)[kItems], F&& f) {
  switch (c.width) {
    case 1: load_tile<unsigned char>(c.data, base, flag, out); break;
    case 2: load_tile<unsigned short>(c.data, base, flag, out); break;
    case 4: load_tile<unsigned int>(c.data, base, flag, out); break;
    default: load_tile<unsigned long long>(c.data, base, flag, out); break;
  }
  f();
}

}  // namespace raydb::exec::cuda::block
