#pragma once
// Where each row's bits lie in a frame-of-reference bit-packed column (storage/bit_pack.h
// packs, the CUDA star kernels' block loads unpack in registers). Compiled for the CPU
// and the GPU alike, so both read one definition.
//
// A column of packed values (value - reference, `bits` wide, 0..32) is cut into
// miniblocks of 1024 rows. A miniblock is 32 lanes x 32 values: lane l holds rows
// 16 l .. 16 l + 15 of the miniblock's first 512 rows (slots 0..15) and the same rows
// of its second 512 (slots 16..31). Lane l's 32 values are one little-endian bit
// stream of 32 * bits bits = `bits` 32-bit words, and word k of lane l is word
// 32 k + l of the miniblock (miniblock m starts at word 32 * bits * m).
//
// Why this shape: a fact kernel's tile gives each warp 512 consecutive rows and
// each lane 16 of them (block/load.cuh), so
//   - a warp reading word k of its lanes reads 32 consecutive words: one coalesced
//     128-byte line per load instruction, every byte used;
//   - which word and shift a slot needs depends only on the slot and `bits`, the same
//     for all lanes: no divergence, each value is a funnel shift of one or two words;
//   - 32 values per lane make a lane's stream a whole number of words at every
//     width (16 would waste half a word at odd widths);
//   - a miniblock is a quarter of a 4096-row tile, so a tile or a range of tiles
//     (data skipping) starts at a computable word.
// The buffer ends with kPackedPadWords spare words, so reading the word after a
// value's first (when it straddles two) never leaves the allocation.
#include <cstdint>

#include "common/host_device.h"

namespace raydb {

inline constexpr uint64_t kPackedMiniblockRows = 1024;
inline constexpr uint64_t kPackedHalfRows = 512;  // one warp's share of a kernel tile
inline constexpr uint64_t kPackedLanes = 32;
inline constexpr uint64_t kPackedPadWords = 64;
inline constexpr int kPackedMaxBits = 32;

// 32-bit words a column of `rows` values at `bits` occupies, padding included.
RAYDB_HOST_DEVICE uint64_t packed_words(uint64_t rows, int bits) {
  const uint64_t miniblocks = (rows + kPackedMiniblockRows - 1) / kPackedMiniblockRows;
  return miniblocks * kPackedLanes * uint64_t(bits) + kPackedPadWords;
}

// The first word of the miniblock holding `row` (a multiple of 1024: a tile's start).
RAYDB_HOST_DEVICE uint64_t packed_miniblock_word(uint64_t row, int bits) {
  return row / kPackedMiniblockRows * kPackedLanes * uint64_t(bits);
}

// Bit position of a row inside its lane's stream, and the lane.
struct PackedSlot {
  uint32_t lane;
  uint32_t bit;  // slot * bits
};

RAYDB_HOST_DEVICE PackedSlot packed_slot(uint64_t row, int bits) {
  const uint32_t in_mini = uint32_t(row % kPackedMiniblockRows);
  const uint32_t half = in_mini / uint32_t(kPackedHalfRows);
  const uint32_t in_half = in_mini % uint32_t(kPackedHalfRows);
  const uint32_t slot = half * 16u + in_half % 16u;
  return PackedSlot{in_half / 16u, slot * uint32_t(bits)};
}

// Word index (from the column's start) of the first word holding `row`'s bits, and
// the shift of its lowest bit inside that word.
RAYDB_HOST_DEVICE uint64_t packed_word_of(uint64_t row, int bits, uint32_t* shift) {
  const PackedSlot s = packed_slot(row, bits);
  *shift = s.bit % 32u;
  return packed_miniblock_word(row, bits) + uint64_t(s.bit / 32u) * kPackedLanes + s.lane;
}

// The fact kernels' view (block/load.cuh unpack_tile): in a tile starting at `base`
// (a multiple of 4096 rows), lane `lane` of warp `warp` holds rows
// base + 512 warp + 16 lane + i, i = 0..15. Word k of that lane's stream is at word
// packed_lane_word(...) + 32 k, and item i starts at bit packed_item_bit(...) of it.
RAYDB_HOST_DEVICE uint64_t packed_lane_word(uint64_t base, uint32_t warp, uint32_t lane, int bits) {
  return packed_miniblock_word(base + uint64_t(warp) * kPackedHalfRows, bits) + lane;
}
RAYDB_HOST_DEVICE uint32_t packed_item_bit(uint32_t warp, uint32_t item, int bits) {
  return ((warp & 1u) * 16u + item) * uint32_t(bits);
}

// Whether a value at `shift` continues into the lane's next word (32 words on).
RAYDB_HOST_DEVICE bool packed_straddles(uint32_t shift, int bits) { return shift + uint32_t(bits) > 32u; }

// The value whose low bit is bit `shift` of `lo`, continuing into `hi`.
RAYDB_HOST_DEVICE uint32_t packed_extract(uint32_t lo, uint32_t hi, uint32_t shift, int bits) {
  const uint64_t both = (uint64_t(hi) << 32 | lo) >> shift;
  return bits >= 32 ? uint32_t(both) : uint32_t(both) & ((1u << bits) - 1u);
}

}  // namespace raydb
