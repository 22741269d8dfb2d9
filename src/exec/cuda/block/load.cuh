#pragma once
// BlockLoad: a tile of TILE = kBlock * kItems rows per thread block; each thread
// holds kItems rows of it. Which rows is the tile's Layout, the same for every
// column of a kernel (so item i of every column is the same row):
//
//   kBlocked  thread t holds rows t * kItems + i, read with 16-byte vectors (a 1-byte
//             column is one load of 16 rows). A warp's load instruction spans
//             32 * 16 bytes * width apart: for 4-byte columns each instruction
//             touches 16 cache lines, half of two sectors each.
//   kStriped  item i = 4 * g + j of lane l in warp w is row w * 32 * kItems +
//             g * 128 + l * 4 + j: each group g is one load of 4 consecutive rows
//             (4, 8, 16 or 32 bytes), and a warp's instruction reads 128 * width
//             contiguous bytes: whole lines, every sector used once (Crystal's
//             striped loads, 4 rows wide so narrow columns still move 4+ bytes).
//
//   kPacked   kBlocked rows; a column with DevColumn::bits set is read from its
//             bit-packed form (storage/packed_layout.h) and decoded in registers
//             (unpack_tile). A layout of its own so the kernels without packed
//             columns compile exactly as before (no extra registers or code).
//
// A vector is loaded only when one of its rows is still selected: once filters and
// probes have dropped most rows, later columns are read only where a selected row
// lives.
#include <cstdint>

#include "exec/cuda/kernel_params.h"
#include "storage/packed_layout.h"

namespace raydb::exec::cuda::block {

constexpr int kBlock = 256;
constexpr int kItems = 16;
constexpr int kTile = kBlock * kItems;
static_assert(kTile == kStarTileRows, "the host sizes per-row bit arrays by kStarTileRows");
constexpr int kGroup = 4;  // rows per striped load

enum class Layout { kBlocked, kStriped, kPacked };
// Thread t holds rows t * kItems + i (kBlocked and kPacked).
constexpr bool blocked_rows(Layout L) { return L != Layout::kStriped; }

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

// Stored value of one row as the layout reads it: under kPacked, a packed column's
// row found by packed_word_of (one or two words, a funnel shift; exact).
template <Layout L>
__device__ __forceinline__ uint64_t load_row(const DevColumn& c, uint64_t row) {
  if constexpr (L == Layout::kPacked) {
    if (c.bits) {
      const uint32_t* d = static_cast<const uint32_t*>(c.data);
      uint32_t shift = 0;
      const uint64_t w = packed_word_of(row, c.bits, &shift);
      const uint32_t hi = packed_straddles(shift, c.bits) ? __ldg(d + w + kPackedLanes) : 0u;
      return packed_extract(__ldg(d + w), hi, shift, c.bits);
    }
  }
  return load_stored(c, row);
}

// The SQL value (stored integer form) of a stored word: base + offset, or the
// dictionary entry. Both are exact by construction (column_cache.cpp).
__device__ __forceinline__ int64_t value_of(const DevColumn& c, uint64_t s) {
  return c.decode ? __ldg(c.decode + s) : int64_t(uint64_t(c.base) + s);
}

// The row of item i of this thread in the tile at `base`.
template <Layout L>
__device__ __forceinline__ uint64_t item_row(uint64_t base, int i) {
  if constexpr (blocked_rows(L)) {
    return base + uint64_t(threadIdx.x) * kItems + unsigned(i);
  } else {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    return base + warp * (32u * kItems) + unsigned(i / kGroup) * (32u * kGroup) + lane * kGroup + unsigned(i % kGroup);
  }
}

// This thread's items of a bit per row (bit r % 16 of chunk r / 16, filter_passes.cu)
// as a tile mask. Blocked: its 16 rows are one chunk. Striped: item 4g + j is row
// base + 512 warp + 128 g + 4 lane + j, so group g's four bits are a nibble of chunk
// (base + 512 warp + 128 g) / 16 + lane / 4.
template <Layout L>
__device__ __forceinline__ uint32_t tile_bits(const uint16_t* bits, uint64_t base) {
  if constexpr (blocked_rows(L)) {
    return __ldg(bits + (base >> 4) + threadIdx.x);
  } else {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    uint32_t m = 0;
#pragma unroll
    for (int g = 0; g < kItems / kGroup; g++) {
      const uint32_t chunk = __ldg(bits + ((base + warp * 512u + unsigned(g) * 128u) >> 4) + lane / 4);
      m |= ((chunk >> ((lane & 3u) * 4u)) & 0xfu) << (g * kGroup);
    }
    return m;
  }
}

// Splits 32-bit words holding 32 / (8 * sizeof(T)) values each into out[at ..).
template <typename T, typename V, int N>
__device__ __forceinline__ void unpack(const uint32_t (&w)[N], V* out) {
  if constexpr (sizeof(T) == 8) {
#pragma unroll
    for (int j = 0; j < N / 2; j++) out[j] = V(uint64_t(w[2 * j]) | (uint64_t(w[2 * j + 1]) << 32));
  } else {
    constexpr int kBits = int(sizeof(T)) * 8;
    constexpr int kPerWord = 32 / kBits;
#pragma unroll
    for (int j = 0; j < N * kPerWord; j++) {
      const uint32_t word = w[j / kPerWord];
      out[j] = kBits == 32 ? word : (word >> ((j % kPerWord) * kBits)) & ((1u << (kBits & 31)) - 1u);
    }
  }
}

// Loads the stored values of the selected rows of a tile into registers; `sel` has
// bit i set while item i is still selected (one register instead of kItems flags). Reading a
// whole vector past the last row stays inside the buffer: device buffers are
// rounded up to 256 bytes and every vector is aligned to its size (a power of two
// dividing 256), so a vector holding one valid row lies inside the allocation.
template <typename T, typename V, Layout L>
__device__ __forceinline__ void load_tile(const void* data, uint64_t base, uint32_t sel, V (&out)[kItems]) {
  const T* col = static_cast<const T*>(data);
  if constexpr (blocked_rows(L)) {
    constexpr int kPer = 16 / int(sizeof(T));  // items per 16-byte vector
    const uint4* d = reinterpret_cast<const uint4*>(col + item_row<L>(base, 0));
#pragma unroll
    for (int v = 0; v < kItems / kPer; v++) {
      const bool any = (sel >> (v * kPer)) & ((1u << kPer) - 1u);
      uint4 x = make_uint4(0, 0, 0, 0);
      if (any) x = __ldg(d + v);
      const uint32_t w[4] = {x.x, x.y, x.z, x.w};
      unpack<T, V, 4>(w, out + v * kPer);
    }
  } else {
#pragma unroll
    for (int g = 0; g < kItems / kGroup; g++) {
      const bool any = (sel >> (g * kGroup)) & 0xfu;
      const T* p = col + item_row<L>(base, g * kGroup);
      if constexpr (sizeof(T) == 1) {
        uint32_t w[1] = {any ? __ldg(reinterpret_cast<const uint32_t*>(p)) : 0u};
        unpack<T, V, 1>(w, out + g * kGroup);
      } else if constexpr (sizeof(T) == 2) {
        uint2 x = make_uint2(0, 0);
        if (any) x = __ldg(reinterpret_cast<const uint2*>(p));
        uint32_t w[2] = {x.x, x.y};
        unpack<T, V, 2>(w, out + g * kGroup);
      } else if constexpr (sizeof(T) == 4) {
        uint4 x = make_uint4(0, 0, 0, 0);
        if (any) x = __ldg(reinterpret_cast<const uint4*>(p));
        uint32_t w[4] = {x.x, x.y, x.z, x.w};
        unpack<T, V, 4>(w, out + g * kGroup);
      } else {
        uint4 x = make_uint4(0, 0, 0, 0), y = make_uint4(0, 0, 0, 0);
        if (any) {
          x = __ldg(reinterpret_cast<const uint4*>(p));
          y = __ldg(reinterpret_cast<const uint4*>(p) + 1);
        }
        uint32_t w[8] = {x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w};
        unpack<T, V, 8>(w, out + g * kGroup);
      }
    }
  }
}

// A packed column's tile (blocked rows). Thread t (lane l of warp w) holds rows
// base + 512 w + 16 l + i: slots 16 h + i of lane l in miniblock (base + 512 w) / 1024,
// h = w & 1 (a tile starts at a multiple of 4096), at bit (16 h + i) * bits of the
// lane's stream (storage/packed_layout.h). Each selected item reads the one or two
// words holding it: a warp's load is 32 consecutive words (one 128-byte line, the
// same line for neighbouring items, so mostly L1 hits), and nothing is held in a
// runtime-indexed array. The width is a runtime value: one code path at every call
// site (a switch over compile-time widths spilled the 64-register kernels: ptxas
// showed 236 bytes of spill stores in the plain-scan instantiation). Integer shifts
// and masks of the words the packer wrote: the values are exactly the stored ones.
template <typename V>
__device__ __forceinline__ void unpack_tile(const DevColumn& c, uint64_t base, uint32_t sel, V (&out)[kItems]) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned b = unsigned(c.bits);
  const uint32_t* p = static_cast<const uint32_t*>(c.data) + packed_lane_word(base, warp, lane, int(b));
  const uint32_t mask = b >= 32 ? ~0u : (1u << b) - 1u;
  unsigned bit = packed_item_bit(warp, 0, int(b));
#pragma unroll
  for (int i = 0; i < kItems; i++, bit += b) {
    uint32_t v = 0;
    if ((sel >> i) & 1u) {
      const unsigned k = bit / 32, s = bit % 32;
      const uint32_t lo = __ldg(p + 32u * k);
      const uint32_t hi = s + b > 32 ? __ldg(p + 32u * (k + 1)) : 0u;
      v = uint32_t(((uint64_t(hi) << 32) | lo) >> s) & mask;
    }
    out[i] = V(v);
  }
}

// Dispatches on the stored width once per tile, not per row. V is uint32_t when the
// host proved every fact column is at most 4 bytes wide (launch_star), else uint64_t.
template <typename V, Layout L>
__device__ __forceinline__ void with_width(const DevColumn& c, uint64_t base, uint32_t sel, V (&out)[kItems]) {
  if constexpr (L == Layout::kPacked) {
    if (c.bits) return unpack_tile<V>(c, base, sel, out);
  }
  switch (c.width) {
    case 1: load_tile<unsigned char, V, L>(c.data, base, sel, out); break;
    case 2: load_tile<unsigned short, V, L>(c.data, base, sel, out); break;
    case 4: load_tile<unsigned int, V, L>(c.data, base, sel, out); break;
    default:
      if constexpr (sizeof(V) == 8) load_tile<unsigned long long, V, L>(c.data, base, sel, out);
      break;
  }
}

}  // namespace raydb::exec::cuda::block
