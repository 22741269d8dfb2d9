// exec/core/radix_order: the radix permutation against std::stable_sort over random
// keys of several spans (one byte to all eight, negative and extreme values), ties,
// one distinct key, and the small-input path.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "exec/core/radix_order.h"

namespace raydb::exec {
namespace {

std::vector<uint32_t> reference(const std::vector<int64_t>& keys) {
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

TEST(RadixOrder, EqualsStableSortOverManySpans) {
  std::mt19937_64 rng(7);
  for (const size_t n : {size_t(0), size_t(1), size_t(5), size_t(4095), size_t(4096), size_t(50000)}) {
    for (const int64_t span : {int64_t(1), int64_t(200), int64_t(70000), int64_t(1) << 40,
                               std::numeric_limits<int64_t>::max()}) {
      std::vector<int64_t> keys(n);
      std::uniform_int_distribution<int64_t> d(-span, span);
      for (auto& k : keys) k = d(rng);
      EXPECT_EQ(ascending_order(keys), reference(keys)) << "n " << n << " span " << span;
    }
  }
}

TEST(RadixOrder, ExtremesTiesAndOneDistinctKey) {
  std::vector<int64_t> keys;
  for (int r = 0; r < 3000; r++)
    for (int64_t v : {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), int64_t(0),
                      int64_t(-1), int64_t(1)})
      keys.push_back(v);
  EXPECT_EQ(ascending_order(keys), reference(keys));
  std::vector<int64_t> same(10000, 42);
  EXPECT_EQ(ascending_order(same), reference(same));
  // Descending unique keys (a group table's ids in reverse): the order reverses them.
  std::vector<int64_t> down(20000);
  for (size_t i = 0; i < down.size(); i++) down[i] = int64_t(down.size() - i) * 1000003;
  EXPECT_EQ(ascending_order(down), reference(down));
}

// Keys of several words: the stable lexicographic (signed) order, across widths,
// small and wide spans per word, ties on leading words, below and above the radix cutoff.
TEST(RadixOrder, RowsOfSeveralWordsEqualStableLexicographicSort) {
  std::mt19937_64 rng(11);
  for (const size_t width : {size_t(1), size_t(2), size_t(3)}) {
    for (const size_t n : {size_t(0), size_t(1), size_t(7), size_t(4095), size_t(4096), size_t(30000)}) {
      for (const int64_t span : {int64_t(0), int64_t(3), int64_t(100000), std::numeric_limits<int64_t>::max()}) {
        std::vector<int64_t> words(n * width);
        std::uniform_int_distribution<int64_t> d(-span, span);
        for (size_t i = 0; i < words.size(); i++) words[i] = (i % width == width - 1) ? int64_t(rng() % 2) : d(rng);
        std::vector<uint32_t> want(n);
        std::iota(want.begin(), want.end(), 0);
        std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) {
          return std::lexicographical_compare(words.begin() + long(a * width), words.begin() + long(a * width + width),
                                              words.begin() + long(b * width), words.begin() + long(b * width + width));
        });
        EXPECT_EQ(ascending_order_rows(words, width), want) << "width " << width << " n " << n << " span " << span;
      }
    }
  }
}

}  // namespace
}  // namespace raydb::exec
