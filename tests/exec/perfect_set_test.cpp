// The perfect set behind GPU IN lists of up to 128 keys, against std::set (brute
// force): every key is found, every other value is not (keys' neighbours, values that
// agree with a key in the low 32 bits, what empty slots hold, random values), and the
// build refuses what it cannot hold.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "exec/core/perfect_set.h"

namespace raydb::test {
namespace {

void check_set(const std::vector<uint64_t>& keys, std::mt19937_64& rng) {
  const std::optional<exec::PerfectSet> s = exec::build_perfect_set(keys);
  ASSERT_TRUE(s.has_value()) << keys.size() << " keys";
  const std::set<uint64_t> oracle(keys.begin(), keys.end());
  EXPECT_EQ(s->table.size(), size_t(1) << s->bits);
  EXPECT_LE(s->bits, exec::kMaxPerfectBits);
  for (uint64_t k : keys) {
    EXPECT_TRUE(s->contains(k)) << k;
    for (uint64_t probe : {k - 1, k + 1, k | (uint64_t(1) << 32), k + (uint64_t(1) << 40), ~k})
      EXPECT_EQ(s->contains(probe), oracle.count(probe) == 1) << probe;
  }
  for (uint32_t e : s->table) EXPECT_EQ(s->contains(e), oracle.count(e) == 1) << e;
  for (int i = 0; i < 20000; i++) {
    const uint64_t x = i % 3 == 0 ? rng() : i % 3 == 1 ? rng() % (uint64_t(1) << 30) : rng() % 256;
    EXPECT_EQ(s->contains(x), oracle.count(x) == 1) << x;
  }
}

TEST(PerfectSet, MembershipEqualsBruteForce) {
  std::mt19937_64 rng(3);
  for (size_t n : {size_t(1), size_t(2), size_t(6), size_t(9), size_t(64), size_t(100), size_t(128)}) {
    for (int rep = 0; rep < 5; rep++) {
      std::vector<uint64_t> keys(n);
      for (auto& k : keys) k = rng() % (uint64_t(1) << 30);
      check_set(keys, rng);
    }
  }
  std::vector<uint64_t> dense(128);  // consecutive keys
  for (size_t i = 0; i < dense.size(); i++) dense[i] = 1000 + i;
  check_set(dense, rng);
  std::vector<uint64_t> strided;  // only high bits differ within 32 bits
  for (uint64_t i = 0; i < 100; i++) strided.push_back(i << 24);
  check_set(strided, rng);
  check_set({0, 0xffffffffull, 5, 5, 5, 0x80000000ull}, rng);  // extremes and duplicates
}

TEST(PerfectSet, RefusesWhatItCannotHold) {
  EXPECT_FALSE(exec::build_perfect_set({}).has_value());
  EXPECT_FALSE(exec::build_perfect_set({1, uint64_t(1) << 32}).has_value()) << "a key above 32 bits";
  std::vector<uint64_t> many(exec::kMaxPerfectKeys + 1);
  for (size_t i = 0; i < many.size(); i++) many[i] = i * 7;
  EXPECT_FALSE(exec::build_perfect_set(many).has_value());
  many.pop_back();
  EXPECT_TRUE(exec::build_perfect_set(many).has_value()) << "exactly the maximum";
}

// The table stays small: the first size tried is about n^2 / 4 slots.
TEST(PerfectSet, TableSizeFollowsTheBirthdayBound) {
  std::mt19937_64 rng(5);
  std::vector<uint64_t> keys(64);
  for (auto& k : keys) k = rng() % (uint64_t(1) << 30);
  const std::optional<exec::PerfectSet> s = exec::build_perfect_set(keys);
  ASSERT_TRUE(s.has_value());
  EXPECT_LE(s->bits, 11u);
}

}  // namespace
}  // namespace raydb::test
