#include "storage/bit_pack.h"

#include <algorithm>
#include <bit>

#include "storage/packed_layout.h"

namespace raydb {

namespace {

// ORs `v` (bits wide) into the lane stream at `row`'s slot; words start zeroed.
void put(uint32_t* words, int bits, uint64_t row, uint32_t v) {
  uint32_t shift = 0;
  const uint64_t w = packed_word_of(row, bits, &shift);
  words[w] |= v << shift;
  if (packed_straddles(shift, bits)) words[w + kPackedLanes] |= v >> (32u - shift);
}

// One miniblock of stored values of type T, lane by lane: a lane's 32 values go into
// a 64-bit buffer in stream order and leave it a word at a time (32 * bits bits are
// `bits` whole words), so nothing is divided per value. Values are masked to `bits`.
template <typename T>
void pack_miniblock(const T* data, uint64_t rows, int bits, uint64_t m, uint32_t* words) {
  uint32_t* out = words + packed_miniblock_word(m * kPackedMiniblockRows, bits);
  const uint64_t mask = bits == 0 ? 0 : (uint64_t(1) << bits) - 1;
  const uint64_t first = m * kPackedMiniblockRows;
  for (uint32_t lane = 0; lane < kPackedLanes; lane++) {
    uint64_t buf = 0;
    int have = 0;
    uint32_t k = 0;
    for (uint32_t slot = 0; slot < 32; slot++) {
      const uint64_t row = first + (slot / 16) * kPackedHalfRows + lane * 16 + slot % 16;
      const uint64_t v = row < rows ? uint64_t(data[row]) & mask : 0;
      buf |= v << have;
      have += bits;
      if (have >= 32) {
        out[k++ * kPackedLanes + lane] = uint32_t(buf);
        buf >>= 32;
        have -= 32;
      }
    }
  }
}

template <typename T>
void pack_miniblocks(const void* data, uint64_t rows, int bits, uint64_t first, uint64_t last, uint32_t* words) {
  const uint64_t end = std::min(last, (rows + kPackedMiniblockRows - 1) / kPackedMiniblockRows);
  for (uint64_t m = first; m < end; m++) pack_miniblock(static_cast<const T*>(data), rows, bits, m, words);
}

}  // namespace

int packed_bits_for(uint64_t span) {
  if (span > UINT32_MAX) return -1;
  return int(std::bit_width(span));
}

int64_t PackedColumn::value(uint64_t row) const {
  return int64_t(uint64_t(reference) + unpack_stored(words.data(), bits, row));
}

std::optional<PackedColumn> pack_values(const int64_t* values, uint64_t n) {
  PackedColumn p;
  p.rows = n;
  if (n > 0) {
    const auto [lo, hi] = std::minmax_element(values, values + n);
    p.reference = *lo;
    p.bits = packed_bits_for(uint64_t(*hi) - uint64_t(*lo));
    if (p.bits < 0) return std::nullopt;
  }
  p.words.assign(packed_words(n, p.bits), 0);
  for (uint64_t r = 0; r < n; r++) put(p.words.data(), p.bits, r, uint32_t(uint64_t(values[r]) - uint64_t(p.reference)));
  return p;
}

void unpack_values(const PackedColumn& p, int64_t* out) {
  for (uint64_t r = 0; r < p.rows; r++) out[r] = p.value(r);
}

void pack_stored(const void* data, int width, uint64_t rows, int bits, uint64_t first, uint64_t last,
                 uint32_t* words) {
  switch (width) {
    case 1: return pack_miniblocks<uint8_t>(data, rows, bits, first, last, words);
    case 2: return pack_miniblocks<uint16_t>(data, rows, bits, first, last, words);
    case 4: return pack_miniblocks<uint32_t>(data, rows, bits, first, last, words);
    default: return pack_miniblocks<uint64_t>(data, rows, bits, first, last, words);
  }
}

uint32_t unpack_stored(const uint32_t* words, int bits, uint64_t row) {
  uint32_t shift = 0;
  const uint64_t w = packed_word_of(row, bits, &shift);
  const uint32_t hi = packed_straddles(shift, bits) ? words[w + kPackedLanes] : 0u;
  return packed_extract(words[w], hi, shift, bits);
}

}  // namespace raydb
