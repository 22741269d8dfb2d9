// common/prefault_pages.h: populating pages leaves every byte as it was (inside the
// range, the partial pages at its ends, and after it), and zeroed_resize gives what
// std::vector::resize gives, below and above the size where it populates, for a vector
// that already holds values and for exec::Vector's payloads.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "common/default_init_allocator.h"
#include "common/prefault_pages.h"
#include "exec/core/vector.h"

namespace raydb {
namespace {

TEST(PrefaultPages, LeavesContentsAsTheyWere) {
  std::mt19937_64 rng(11);
  for (uint64_t bytes : {uint64_t(0), uint64_t(1), uint64_t(4095), uint64_t(4097), uint64_t(3) << 20}) {
    std::vector<unsigned char> buf(bytes + 9000);
    for (auto& c : buf) c = static_cast<unsigned char>(rng());
    const std::vector<unsigned char> want = buf;
    prefault_pages(buf.data() + 4500, bytes);  // not page-aligned at either end
    ASSERT_EQ(buf, want) << bytes << " bytes";
  }
  prefault_pages(nullptr, 0);  // nothing to do
}

template <typename V>
void expect_resize_as_std(V& v, size_t n) {
  using T = typename V::value_type;
  std::vector<T> want(v.begin(), v.end());
  want.resize(n);
  zeroed_resize(v, n);
  ASSERT_EQ(v.size(), n);
  EXPECT_TRUE(std::equal(v.begin(), v.end(), want.begin())) << n << " elements";
}

TEST(PrefaultPages, ZeroedResizeIsResize) {
  const size_t big = size_t(kPrefaultMinBytes / 8) * 3 + 17;  // populated
  for (size_t n : {size_t(0), size_t(1), size_t(1000), size_t(kPrefaultMinBytes / 8) - 1, big}) {
    std::vector<int64_t> fresh;
    expect_resize_as_std(fresh, n);
    std::vector<int64_t> held(777);  // values kept, the rest zero
    for (size_t i = 0; i < held.size(); i++) held[i] = int64_t(i) * 31 - 5;
    expect_resize_as_std(held, n);
    std::vector<double> doubles(3, 2.5);
    expect_resize_as_std(doubles, n);
  }
  // Memory a previous owner wrote (freed, then handed out again) reads as zero.
  for (int round = 0; round < 3; round++) {
    { std::vector<int64_t> dirty(big, -1); }
    std::vector<int64_t> v;
    zeroed_resize(v, big);
    ASSERT_EQ(v.size(), big);
    for (size_t i = 0; i < big; i++) ASSERT_EQ(v[i], 0) << i;
  }
  // Shrinking and a FillVector (whose resize leaves new elements unwritten) too.
  std::vector<int64_t> s(big, 4);
  expect_resize_as_std(s, 10);
  FillVector<uint32_t> f;
  zeroed_resize(f, 5);
  EXPECT_EQ(f.size(), 5u);
}

TEST(PrefaultPages, PrefaultedReserveKeepsTheElements) {
  const size_t big = size_t(kPrefaultMinBytes / 16) * 2 + 5;
  std::vector<std::pair<uint64_t, uint64_t>> v = {{1, 2}, {7, 9}};
  prefaulted_reserve(v, big);
  EXPECT_GE(v.capacity(), big);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1], std::make_pair(uint64_t(7), uint64_t(9)));
  for (size_t i = 2; i < big; i++) v.emplace_back(i, i + 1);
  EXPECT_EQ(v.back(), std::make_pair(uint64_t(big - 1), uint64_t(big)));
  const auto* data = v.data();
  prefaulted_reserve(v, 10);  // already has room: nothing moves
  EXPECT_EQ(v.data(), data);
  std::vector<int64_t> small = {3};
  prefaulted_reserve(small, 1000);  // small growth: left to the vector's own steps
  EXPECT_EQ(small.capacity(), 1u);
}

TEST(PrefaultPages, LargeVectorPayloadsAreZero) {
  const size_t n = size_t(kPrefaultMinBytes / 8) * 2 + 3;
  for (const Type& t : {Type::bigint(), Type::hugeint(), Type::float64(), Type::varchar()}) {
    exec::Vector v(t, n);
    ASSERT_EQ(v.size, n);
    EXPECT_FALSE(v.has_nulls());
    switch (v.kind) {
      case exec::VectorKind::kInt:
        ASSERT_EQ(v.ints.size(), n);
        for (int64_t x : v.ints) ASSERT_EQ(x, 0);
        break;
      case exec::VectorKind::kHuge:
        ASSERT_EQ(v.huge.size(), n);
        for (__int128 x : v.huge) ASSERT_TRUE(x == 0);
        break;
      case exec::VectorKind::kDouble:
        ASSERT_EQ(v.doubles.size(), n);
        for (double x : v.doubles) ASSERT_EQ(x, 0.0);
        break;
      default:
        ASSERT_EQ(v.strings.size(), n);
        for (std::string_view x : v.strings) ASSERT_TRUE(x.empty());
    }
  }
}

}  // namespace
}  // namespace raydb
