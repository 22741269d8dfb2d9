#include "storage/bit_pack.h"

#include <algorithm>
#include <bit>

#include "storage/packed_layout.h"

namespace raydb {

namespace {

uint64_t stored_at(const void* data, int width, uint64_t row) {
  switch (width) {
    case 1: return static_cast<const uint8_t*>(data)[row];
    case 2: return static_cast<const uint16_t*>(data)[row];
    case 4: return static_cast<const uint32_t*>(data)[row];
    default: return static_cast<const uint64_t*>(data)[row];
  }
}

// ORs `v` (bits wide) into the lane stream at `row`'s slot; words start zeroed.
void put(uint32_t* words, int bits, uint64_t row, uint32_t v) {
  uint32_t shift = 0;
  const uint64_t w = packed_word_of(row, bits, &shift);
  words[w] |= v << shift;
  if (packed_straddles(shift, bits)) words[w + kPackedLanes] |= v >> (32u - shift);
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
  const uint64_t end = std::min(rows, last * kPackedMiniblockRows);
  for (uint64_t r = first * kPackedMiniblockRows; r < end; r++) put(words, bits, r, uint32_t(stored_at(data, width, r)));
}

uint32_t unpack_stored(const uint32_t* words, int bits, uint64_t row) {
  uint32_t shift = 0;
  const uint64_t w = packed_word_of(row, bits, &shift);
  const uint32_t hi = packed_straddles(shift, bits) ? words[w + kPackedLanes] : 0u;
  return packed_extract(words[w], hi, shift, bits);
}

}  // namespace raydb
