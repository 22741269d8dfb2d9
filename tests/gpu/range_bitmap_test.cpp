// The star kernels' bitmap form of long stored-value sets (exec/cuda/range_bitmap.h),
// on the host (no device needed): every bit against a brute-force membership test of
// the ranges, also when filled over used memory, and when the bitmap is taken.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda {
namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

void expect_bits_equal_ranges(const Ranges& sr, uint64_t lo, uint64_t span) {
  const BitWords bits = range_bitmap(sr, lo, span);
  ASSERT_EQ(bits.size(), size_t((span + 31) / 32));
  size_t k = 0;
  for (uint64_t off = 0; off < uint64_t(bits.size()) * 32; off++) {
    const uint64_t v = lo + off;
    while (k < sr.size() && sr[k].second < v) k++;
    const bool in = k < sr.size() && sr[k].first <= v && v <= sr[k].second;
    const bool bit = (bits[size_t(off >> 5)] >> (off & 31)) & 1u;
    ASSERT_EQ(bit, in) << "value " << v << " (offset " << off << ")";
  }
  // Filled over memory that holds other bits (the star pass's reused staging): the same
  // words, nothing written past them.
  std::vector<uint32_t> staging(bits.size() + 2, 0x5A5A5A5Au);
  fill_range_bitmap(sr, lo, span, staging.data());
  ASSERT_TRUE(std::equal(bits.begin(), bits.end(), staging.begin()));
  EXPECT_EQ(staging[bits.size()], 0x5A5A5A5Au);
  EXPECT_EQ(staging.back(), 0x5A5A5A5Au);
}

TEST(CudaAnalysis, RangeBitmapEqualsMembership) {
  // Single bits, word boundaries, whole words, a last partial word.
  expect_bits_equal_ranges({{5, 5}}, 5, 1);
  expect_bits_equal_ranges({{100, 131}}, 100, 32);
  expect_bits_equal_ranges({{100, 100}, {131, 131}, {132, 200}, {230, 300}}, 100, 201);
  expect_bits_equal_ranges({{0, 63}, {64, 64}, {96, 159}}, 0, 160);
  // Random sorted disjoint ranges: short runs and points (key sets) and long runs.
  std::mt19937_64 rng(17);
  for (int t = 0; t < 200; t++) {
    Ranges sr;
    uint64_t v = 1000 + rng() % 64;
    const uint64_t lo = v;
    const int n = 1 + int(rng() % 40);
    for (int i = 0; i < n; i++) {
      const uint64_t len = rng() % 4 == 0 ? rng() % 200 : rng() % 4;
      sr.push_back({v, v + len});
      v += len + 2 + rng() % 70;
    }
    expect_bits_equal_ranges(sr, lo, sr.back().second - lo + 1);
  }
}

// Enough ranges to fill in parallel (more than 65,536), many sharing their first or
// last word with a neighbour: an anti join's complement of a key set.
TEST(CudaAnalysis, RangeBitmapOfManyRangesEqualsMembership) {
  std::mt19937_64 rng(18);
  for (int t = 0; t < 3; t++) {
    Ranges sr;
    uint64_t v = 7 + rng() % 64;
    const uint64_t lo = v;
    for (int i = 0; i < 200000; i++) {
      const uint64_t len = t == 0 ? 0 : rng() % (t == 1 ? 8 : 120);
      sr.push_back({v, v + len});
      v += len + 2 + rng() % (t == 2 ? 3 : 40);
    }
    expect_bits_equal_ranges(sr, lo, sr.back().second - lo + 1);
  }
}

TEST(CudaAnalysis, RangeBitmapTakenForDenseSpans) {
  EXPECT_TRUE(bitmap_pays(uint64_t(1) << 20, 2));          // small: always
  EXPECT_FALSE(bitmap_pays((uint64_t(1) << 20) + 1, 2));    // larger and sparse
  EXPECT_TRUE(bitmap_pays(120000000, 1400000));             // a semi join's order keys at SF 20
  EXPECT_FALSE(bitmap_pays((uint64_t(1) << 28) + 1, 1u << 24));  // over 32 MB
  EXPECT_FALSE(bitmap_pays(0, 1000));                       // all 2^64 values
}

// set_bit_range over 64-bit words (the general path's kPInBitmap): the same bits as a
// per-bit fill, for ranges inside one word, across word edges and over many words.
TEST(CudaAnalysis, BitRangeOf64BitWordsEqualsPerBitFill) {
  std::mt19937_64 rng(9);
  for (int t = 0; t < 500; t++) {
    const uint64_t nbits = 1 + rng() % 700;
    std::vector<uint64_t> words((nbits + 63) / 64, 0), want(words.size(), 0);
    for (int r = 0; r < 4; r++) {
      uint64_t a = rng() % nbits, b = rng() % nbits;
      if (a > b) std::swap(a, b);
      set_bit_range<false>(words.data(), a, b);
      for (uint64_t i = a; i <= b; i++) want[i / 64] |= uint64_t(1) << (i % 64);
    }
    ASSERT_EQ(words, want) << "trial " << t;
  }
}

}  // namespace
}  // namespace raydb::exec::cuda
