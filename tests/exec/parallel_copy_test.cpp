// common/parallel_copy.h: byte-exact copies of every length around the chunk size
// (256 KiB), at unaligned offsets, against memcpy.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "common/parallel_copy.h"

namespace raydb {
namespace {

TEST(ParallelCopy, EqualsMemcpyAroundChunks) {
  constexpr uint64_t kChunk = uint64_t(1) << 18;
  std::mt19937_64 rng(5);
  for (uint64_t bytes : {uint64_t(0), uint64_t(1), kChunk - 1, kChunk, kChunk + 1, 3 * kChunk + 5, 7 * kChunk}) {
    for (size_t off : {size_t(0), size_t(3)}) {
      std::vector<unsigned char> src(bytes + off + 8), dst(bytes + off + 8, 0xAB), want(bytes + off + 8, 0xAB);
      for (auto& c : src) c = static_cast<unsigned char>(rng());
      parallel_copy(dst.data() + off, src.data() + off, bytes);
      if (bytes) std::memcpy(want.data() + off, src.data() + off, bytes);
      ASSERT_EQ(dst, want) << bytes << " bytes at offset " << off;  // bytes outside untouched too
    }
  }
}

TEST(ParallelCopy, CopiedVectorHoldsTheSource) {
  std::vector<int64_t> src(100003);
  for (size_t i = 0; i < src.size(); i++) src[i] = int64_t(i * 2654435761u) - 7;
  const FillVector<int64_t> out = parallel_copied(src.data(), src.size());
  ASSERT_EQ(out.size(), src.size());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), src.begin()));
  EXPECT_TRUE(parallel_copied(src.data(), 0).empty());
}

}  // namespace
}  // namespace raydb
