// The CPU reference codec of packed columns (storage/bit_pack.h): round trips at
// every width 0..32 with references anywhere in int64 (negative, the extremes),
// lengths off the miniblock size, all-equal columns, the narrowed-input packer
// agreeing with the value packer, and the word layout the GPU loads rely on.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "storage/bit_pack.h"
#include "storage/packed_layout.h"

namespace raydb {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// n values in [ref, ref + 2^bits - 1], both ends present when n >= 2.
std::vector<int64_t> values_at(int bits, int64_t ref, uint64_t n, uint32_t seed) {
  const uint64_t top = bits == 0 ? 0 : (uint64_t(1) << bits) - 1;
  std::mt19937_64 rng(seed);
  std::vector<int64_t> v(n);
  for (auto& x : v) x = int64_t(uint64_t(ref) + (top == 0 ? 0 : rng() % (top + 1)));
  if (n >= 2) {
    v[n / 3] = ref;
    v[n - 1] = int64_t(uint64_t(ref) + top);
  }
  return v;
}

TEST(BitPack, BitsForSpan) {
  EXPECT_EQ(packed_bits_for(0), 0);
  EXPECT_EQ(packed_bits_for(1), 1);
  EXPECT_EQ(packed_bits_for(2), 2);
  EXPECT_EQ(packed_bits_for(4095), 12);
  EXPECT_EQ(packed_bits_for(4096), 13);
  EXPECT_EQ(packed_bits_for(UINT32_MAX), 32);
  EXPECT_EQ(packed_bits_for(uint64_t(UINT32_MAX) + 1), -1);
}

TEST(BitPack, RoundTripEveryWidthReferenceAndLength) {
  const uint64_t lengths[] = {0, 1, 2, 31, 513, 1023, 1024, 1025, 4096 + 37, 3 * 4096};
  for (int bits = 0; bits <= 32; bits++) {
    const int64_t top = bits == 0 ? 0 : int64_t((uint64_t(1) << bits) - 1);
    for (int64_t ref : {int64_t(0), int64_t(-5), int64_t(-1) - top / 2, kMin, kMax - top, int64_t(1) << 40}) {
      for (uint64_t n : lengths) {
        const auto v = values_at(bits, ref, n, uint32_t(bits * 131 + n));
        const auto p = pack_values(v.data(), n);
        ASSERT_TRUE(p.has_value());
        if (n >= 2) {
          EXPECT_EQ(p->bits, bits) << "n " << n;
          EXPECT_EQ(p->reference, ref);
        }
        EXPECT_EQ(p->words.size(), packed_words(n, p->bits));
        std::vector<int64_t> back(n, 7);
        unpack_values(*p, back.data());
        ASSERT_EQ(back, v) << "bits " << bits << " ref " << ref << " n " << n;
      }
    }
  }
}

TEST(BitPack, AllEqualColumnsTakeNoBits) {
  for (int64_t x : {kMin, int64_t(-1), int64_t(0), int64_t(42), kMax}) {
    const std::vector<int64_t> v(5000, x);
    const auto p = pack_values(v.data(), v.size());
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->bits, 0);
    EXPECT_EQ(p->bytes(), kPackedPadWords * 4);
    for (uint64_t r : {uint64_t(0), uint64_t(1023), uint64_t(4999)}) EXPECT_EQ(p->value(r), x);
  }
}

TEST(BitPack, SpansBeyond32BitsAreNotPacked) {
  const std::vector<int64_t> a = {0, int64_t(1) << 32};
  EXPECT_FALSE(pack_values(a.data(), a.size()).has_value());
  const std::vector<int64_t> b = {kMin, kMax};
  EXPECT_FALSE(pack_values(b.data(), b.size()).has_value());
  const std::vector<int64_t> c = {-1, int64_t(UINT32_MAX) - 1};  // span 2^32 - 1: fits
  EXPECT_TRUE(pack_values(c.data(), c.size()).has_value());
}

// The narrowed-column packer (reference 0), whole or miniblock by miniblock,
// writes the same words as the value packer.
TEST(BitPack, StoredPackerMatchesValuePacker) {
  const uint64_t n = 5 * 1024 + 300;
  for (int width : {1, 2, 4, 8}) {
    const int max_bits = width == 8 ? 32 : width * 8;
    for (int bits = 1; bits <= max_bits; bits++) {
      const auto v = values_at(bits, 0, n, uint32_t(bits + 7 * width));
      std::vector<unsigned char> stored(n * uint64_t(width));
      for (uint64_t r = 0; r < n; r++) {
        const uint64_t x = uint64_t(v[r]);
        for (int b = 0; b < width; b++) stored[r * uint64_t(width) + uint64_t(b)] = (unsigned char)(x >> (8 * b));
      }
      const auto p = pack_values(v.data(), n);
      ASSERT_TRUE(p.has_value());
      std::vector<uint32_t> whole(packed_words(n, bits), 0), parts(packed_words(n, bits), 0);
      pack_stored(stored.data(), width, n, bits, 0, 6, whole.data());
      for (uint64_t m = 0; m < 6; m++) pack_stored(stored.data(), width, n, bits, m, m + 1, parts.data());
      EXPECT_EQ(whole, p->words) << "width " << width << " bits " << bits;
      EXPECT_EQ(parts, p->words) << "width " << width << " bits " << bits;
      for (uint64_t r = 0; r < n; r += 97) EXPECT_EQ(unpack_stored(whole.data(), bits, r), uint32_t(v[r]));
    }
  }
}

// At 32 bits every value is one word: word k of lane l of miniblock m is word
// 1024 m + 32 k + l and holds slot k of the lane (rows 16 l + k, then 512 + 16 l + k - 16).
TEST(BitPack, WordLayoutIsLaneInterleaved) {
  const uint64_t n = 2048;
  std::vector<int64_t> v(n);
  for (uint64_t r = 0; r < n; r++) v[r] = int64_t(r) | (int64_t(1) << 31);
  v[0] = 0;
  const auto p = pack_values(v.data(), n);
  ASSERT_TRUE(p.has_value());
  ASSERT_EQ(p->bits, 32);
  for (uint64_t m = 0; m < 2; m++)
    for (uint64_t k = 0; k < 32; k++)
      for (uint64_t l = 0; l < 32; l++) {
        const uint64_t row = m * 1024 + (k / 16) * 512 + l * 16 + k % 16;
        EXPECT_EQ(p->words[m * 1024 + k * 32 + l], uint32_t(v[row])) << m << " " << k << " " << l;
      }
  // 4 bits: lane l's 32 values are its 4 words, 8 values each, low bits first.
  std::vector<int64_t> w(1024);
  for (uint64_t r = 0; r < 1024; r++) w[r] = int64_t(r % 16);
  const auto q = pack_values(w.data(), w.size());
  ASSERT_EQ(q->bits, 4);
  EXPECT_EQ(q->words[0], 0x76543210u);   // lane 0, slots 0..7: rows 0..7
  EXPECT_EQ(q->words[32], 0xfedcba98u);  // lane 0, slots 8..15: rows 8..15
  EXPECT_EQ(q->words[64], 0x76543210u);  // lane 0, slots 16..23: rows 512..519
}

// The fact kernels' view of a tile (packed_lane_word, packed_item_bit: what
// block/load.cuh unpack_tile reads): every item of every thread of a 4096-row tile
// finds its row's word and shift, and the kernel's extraction (the lane's word k and
// k + 1 as 64 bits, shifted and masked) gives back the stored values, at every width
// 1..32, over three tiles of 9,000 rows (the last one partial).
TEST(BitPack, KernelTileViewFindsEveryRow) {
  const uint64_t rows = 9000;
  for (int bits = 1; bits <= 32; bits++) {
    SCOPED_TRACE(bits);
    std::vector<uint32_t> stored(rows);
    std::mt19937_64 rng{uint64_t(bits)};
    const uint64_t top = (uint64_t(1) << bits) - 1;
    for (auto& x : stored) x = uint32_t(rng() & top);
    std::vector<uint32_t> words(packed_words(rows, bits), 0);
    pack_stored(stored.data(), 4, rows, bits, 0, ~uint64_t(0), words.data());
    int mismatches = 0;
    for (uint64_t base = 0; base < rows; base += 4096)
      for (uint32_t warp = 0; warp < 8; warp++)
        for (uint32_t lane = 0; lane < 32; lane++)
          for (uint32_t i = 0; i < 16; i++) {
            const uint64_t row = base + warp * 512 + lane * 16 + i;
            if (row >= rows) continue;
            const uint32_t bit = packed_item_bit(warp, i, bits), k = bit / 32, s = bit % 32;
            const uint64_t at = packed_lane_word(base, warp, lane, bits) + 32 * uint64_t(k);
            uint32_t shift = 0;
            EXPECT_EQ(at, packed_word_of(row, bits, &shift));
            EXPECT_EQ(s, shift);
            const uint32_t hi = s + uint32_t(bits) > 32 ? words[at + 32] : 0u;
            const uint32_t v = uint32_t(((uint64_t(hi) << 32) | words[at]) >> s) & uint32_t(top);
            if (v != stored[row] && ++mismatches < 5) ADD_FAILURE() << "row " << row;
          }
    EXPECT_EQ(mismatches, 0);
  }
}

}  // namespace
}  // namespace raydb
