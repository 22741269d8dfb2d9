// The radix sort of join build keys against std::stable_sort over the same words, and
// join tables built through it (ascending rows) against brute force, for key widths 1-3
// and words from narrow to the full 64-bit range.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "exec/cpu/join_table.h"
#include "exec/cpu/packed_key_sort.h"

namespace raydb::exec {
namespace {

std::vector<int64_t> random_keys(std::mt19937_64& rng, size_t n, int width, int mode) {
  std::vector<int64_t> keys(n * size_t(width));
  for (auto& k : keys) {
    switch (mode) {
      case 0: k = int64_t(rng() % 50) - 25; break;           // few values, negative too
      case 1: k = int64_t(rng() % 300000); break;             // several radix digits
      case 2: k = int64_t(rng() >> 40) * 4096 - 7; break;     // sparse
      case 3: k = int64_t(rng()); break;                      // full range
      case 4: k = rng() % 2 ? INT64_MIN : INT64_MAX; break;   // extremes
      default: k = 5; break;                                  // one value
    }
  }
  return keys;
}

TEST(PackedKeySort, StableAndEqualToComparisonSort) {
  std::mt19937_64 rng(7);
  for (int width = 1; width <= 3; width++)
    for (int mode = 0; mode < 6; mode++)
      for (size_t n : {size_t(0), size_t(1), size_t(17), size_t(20000)}) {
        const std::vector<int64_t> keys = random_keys(rng, n, width, mode);
        // Refused exactly when the words' spans need more than 64 bits together.
        int bits = 0;
        for (int w = 0; w < width && n > 0; w++) {
          int64_t lo = INT64_MAX, hi = INT64_MIN;
          for (size_t i = 0; i < n; i++) lo = std::min(lo, keys[i * size_t(width) + size_t(w)]),
                                          hi = std::max(hi, keys[i * size_t(width) + size_t(w)]);
          const uint64_t span = uint64_t(hi) - uint64_t(lo);
          bits += span == 0 ? 0 : 64 - __builtin_clzll(span);
        }
        PackedKeySort s;
        const bool sorted = s.sort(keys.data(), n, width);
        ASSERT_EQ(sorted, bits <= 64) << "width " << width << " mode " << mode;
        if (!sorted) continue;
        std::vector<uint32_t> want(n);
        std::iota(want.begin(), want.end(), 0u);
        std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) {
          return std::lexicographical_compare(&keys[a * size_t(width)], &keys[(a + 1) * size_t(width)],
                                              &keys[b * size_t(width)], &keys[(b + 1) * size_t(width)]);
        });
        ASSERT_EQ(s.order(), want) << "width " << width << " mode " << mode << " n " << n;
        std::vector<int64_t> words(static_cast<size_t>(width));
        for (size_t i = 0; i < n; i++) {
          s.unpack(s.packed()[i], words.data());
          ASSERT_TRUE(std::equal(words.begin(), words.end(), &keys[want[i] * size_t(width)])) << i;
        }
      }
}

TEST(JoinTable, RadixBuiltTablesMatchBruteForce) {
  std::mt19937_64 rng(3);
  for (int width = 1; width <= 3; width++)
    for (int mode = 0; mode < 6; mode++) {
      const size_t n = 6000;
      const std::vector<int64_t> keys = random_keys(rng, n, width, mode);
      std::vector<uint32_t> rows(n);
      for (size_t i = 0; i < n; i++) rows[i] = uint32_t(i * 3 + 2);  // ascending
      std::multimap<std::vector<int64_t>, uint32_t> truth;
      for (size_t i = 0; i < n; i++)
        truth.insert({std::vector<int64_t>(&keys[i * size_t(width)], &keys[(i + 1) * size_t(width)]), rows[i]});
      JoinTable jt;
      jt.build(keys, width, rows);
      EXPECT_EQ(jt.build_rows(), n);
      for (int probe = 0; probe < 2000; probe++) {
        std::vector<int64_t> k(static_cast<size_t>(width));
        if (probe % 2) {
          const size_t r = rng() % n;
          k.assign(&keys[r * size_t(width)], &keys[(r + 1) * size_t(width)]);
        } else {
          for (auto& x : k) x = int64_t(rng() % 64) - 32;
        }
        uint32_t b, e;
        jt.find(k.data(), b, e);
        std::vector<uint32_t> got(jt.rows() + b, jt.rows() + e), want;
        auto [lo, hi] = truth.equal_range(k);
        for (auto it = lo; it != hi; ++it) want.push_back(it->second);
        ASSERT_EQ(got, want) << "width " << width << " mode " << mode;  // ascending rows within a key
        if (jt.unique() && width == 1) ASSERT_EQ(jt.find_unique(k[0]), want.empty() ? JoinTable::kNone : want[0]);
      }
    }
}

}  // namespace
}  // namespace raydb::exec
