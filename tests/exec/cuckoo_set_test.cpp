// The cuckoo set behind GPU IN lists of far-apart keys, against std::set (brute force):
// every key is found, every non-key is not (including values equal to what empty slots
// hold and keys' neighbours), duplicates, extremes and sizes up to 2^16 keys.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "exec/core/cuckoo_set.h"

namespace raydb::test {
namespace {

void check_set(const std::vector<uint64_t>& keys, std::mt19937_64& rng) {
  const std::optional<exec::CuckooSet> s = exec::build_cuckoo_set(keys);
  ASSERT_TRUE(s.has_value()) << keys.size() << " keys";
  const std::set<uint64_t> oracle(keys.begin(), keys.end());
  EXPECT_LE(oracle.size() * 4, size_t(1) << s->bits) << "each half at most a quarter full";
  for (uint64_t k : keys) {
    EXPECT_TRUE(s->contains(k)) << k;
    for (uint64_t probe : {k - 1, k + 1, k ^ (uint64_t(1) << 40), ~k})
      EXPECT_EQ(s->contains(probe), oracle.count(probe) == 1) << probe;
  }
  for (int i = 0; i < 20000; i++) {
    const uint64_t x = i % 2 ? rng() : rng() % (uint64_t(1) << 30);
    EXPECT_EQ(s->contains(x), oracle.count(x) == 1) << x;
  }
}

TEST(CuckooSet, MembershipEqualsBruteForce) {
  std::mt19937_64 rng(7);
  for (size_t n : {size_t(1), size_t(9), size_t(64), size_t(1000), size_t(1) << 16}) {
    std::vector<uint64_t> keys(n);
    for (auto& k : keys) k = rng() % (uint64_t(1) << 30);
    check_set(keys, rng);
  }
  check_set({0, ~uint64_t(0), uint64_t(1) << 63, 5, 5, 5}, rng);  // extremes and duplicates
  std::vector<uint64_t> strided;  // multiples of 2^32: only high bits differ
  for (uint64_t i = 0; i < 500; i++) strided.push_back(i << 32);
  check_set(strided, rng);
}

// The prefilter passes every key (no false negative: contains() would miss it) and,
// at about 64 bits per key, rejects most other values (otherwise it saves nothing).
TEST(CuckooSet, PrefilterPassesEveryKeyAndRejectsMostOthers) {
  std::mt19937_64 rng(11);
  for (size_t n : {size_t(6), size_t(64), size_t(1000)}) {
    std::vector<uint64_t> keys(n);
    for (auto& k : keys) k = rng() % (uint64_t(1) << 30);
    const std::optional<exec::CuckooSet> s = exec::build_cuckoo_set(keys);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->filter.size() * 32, size_t(1) << s->filter_bits);
    for (uint64_t k : keys) EXPECT_TRUE(s->maybe(k)) << k;
    const std::set<uint64_t> oracle(keys.begin(), keys.end());
    int passed = 0, others = 0;
    for (int i = 0; i < 100000; i++) {
      const uint64_t x = rng() % (uint64_t(1) << 30);
      if (oracle.count(x)) continue;
      others++;
      passed += s->maybe(x);
    }
    EXPECT_LT(passed, others / 20) << n << " keys: " << passed << " of " << others << " non-keys passed";
  }
}

TEST(CuckooSet, EmptyInputHasNoSet) { EXPECT_FALSE(exec::build_cuckoo_set({}).has_value()); }

}  // namespace
}  // namespace raydb::test
