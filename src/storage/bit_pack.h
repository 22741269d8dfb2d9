#pragma once
// Frame-of-reference bit-packing, the CPU reference codec of the packed layout
// (storage/packed_layout.h): values are stored as value - reference (the column's
// minimum) in `bits` = 0..32 bits each. The CUDA backend packs resident fact columns
// in the same layout on the device (setting cuda_compression) and unpacks them in
// registers inside its star kernels; the tests check the kernels' view of the layout
// against this codec.
#include <cstdint>
#include <optional>
#include <vector>

namespace raydb {

// The smallest width holding every value in [0, span] (0 for span 0), or -1 when a
// span needs more than 32 bits (such a column is not packed).
int packed_bits_for(uint64_t span);

struct PackedColumn {
  int bits = 0;
  int64_t reference = 0;  // value = reference + packed value
  uint64_t rows = 0;
  std::vector<uint32_t> words;  // packed_words(rows, bits) words
  uint64_t bytes() const { return words.size() * 4; }
  int64_t value(uint64_t row) const;  // one row, random access
};

// Packs n values with reference = their minimum; nullopt when max - min needs more
// than 32 bits.
std::optional<PackedColumn> pack_values(const int64_t* values, uint64_t n);
// All rows of `p` into out[0, p.rows).
void unpack_values(const PackedColumn& p, int64_t* out);

// Packs the miniblocks [first, last) of `rows` unsigned stored values of `width`
// bytes (1, 2, 4 or 8: a narrowed column) at `bits` with reference 0 into `words`
// (packed_words(rows, bits) words; each word of those miniblocks is written whole).
// Values are masked to `bits`. Miniblocks write disjoint words,
// so ranges may be packed in parallel.
void pack_stored(const void* data, int width, uint64_t rows, int bits, uint64_t first, uint64_t last,
                 uint32_t* words);
// The packed value of one row.
uint32_t unpack_stored(const uint32_t* words, int bits, uint64_t row);

}  // namespace raydb
