// Every CPU algorithm (bitwise, radix with per-group histograms, radix with segments,
// sort) against the reference (reference.h) on adversarial and random data, with and
// without WHERE masks, NULLs and groups (including an empty group), for every spec
// kind; and the algorithms against each other key for key.
#include <gtest/gtest.h>

#include "exec/order_statistics/reference.h"

namespace raydb::test {
namespace {

using namespace orderstat_ref;

struct Variant {
  Algorithm algorithm;
  GroupMode mode;
  const char* name;
};
const Variant kVariants[] = {{Algorithm::kBitwise, GroupMode::kAuto, "bitwise"},
                             {Algorithm::kRadix, GroupMode::kHistograms, "radix/histograms"},
                             {Algorithm::kRadix, GroupMode::kSegments, "radix/segments"},
                             {Algorithm::kSort, GroupMode::kAuto, "sort"}};

void check_all(const Data& d, int threads) {
  std::vector<int64_t> k_per_group(d.group_count);
  for (uint32_t g = 0; g < d.group_count; g++) k_per_group[g] = int64_t(g % 4) + 1;
  const std::vector<RankSpec> specs = all_specs(&k_per_group);
  std::vector<uint64_t> first_keys;
  for (const Variant& v : kVariants) {
    SelectOptions o;
    o.algorithm = v.algorithm;
    o.group_mode = v.mode;
    o.threads = threads;
    const OrderStats r = order_statistics(d.input(), specs, o);
    EXPECT_EQ(check(d, specs, r), "") << v.name << " threads=" << threads;
    std::vector<uint64_t> keys;
    for (const OrderStat& s : r.values) keys.insert(keys.end(), {s.lo_key, s.hi_key});
    if (first_keys.empty()) first_keys = keys;
    EXPECT_EQ(keys, first_keys) << d.name << ": " << v.name << " differs from bitwise";
  }
}

TEST(OrderStatistics, AdversarialUngrouped) {
  for (const Data& d : adversarial_sets()) check_all(d, 2);
}

TEST(OrderStatistics, AdversarialMasksNullsGroups) {
  uint32_t seed = 1;
  for (const Data& base : adversarial_sets()) {
    check_all(decorate(base, 0.7, 0.0, 1, false, seed++), 2);
    check_all(decorate(base, 1.0, 0.2, 1, false, seed++), 3);
    check_all(decorate(base, 0.8, 0.1, 5, true, seed++), 2);
    check_all(decorate(base, 1.0, 0.0, 300, true, seed++), 4);  // many groups: segments under kAuto
  }
}

TEST(OrderStatistics, EverythingMaskedOut) {
  Data d = ints32("masked out", std::vector<int32_t>(1000, 3));
  d.select.assign(1000, 0);
  check_all(d, 2);
  Data n = doubles("all NULL", std::vector<double>(100, 1.0));
  n.nulls.assign(100, 1);
  check_all(decorate(n, 1.0, 0.0, 3, false, 9), 2);
}

TEST(OrderStatistics, ThreadCountsAgree) {
  Data d = adversarial_sets()[12];  // uniform int32
  for (int t : {1, 2, 3, 7}) check_all(d, t);
}

TEST(OrderStatistics, LargeColumnTakesTheCopyOutPath) {
  // 2^19 uniform keys: the first radix pass leaves ~512 candidates, which are copied
  // out; a concentrated column of the same size takes all three passes instead.
  std::mt19937_64 rng(3);
  std::vector<int32_t> u(1 << 19), c(1 << 19);
  for (auto& v : u) v = int32_t(uint32_t(rng()));
  for (size_t i = 0; i < c.size(); i++) c[i] = i % 1000 == 0 ? int32_t(i) : 77;
  check_all(ints32("2^19 uniform", u), 2);
  check_all(ints32("2^19 concentrated", c), 2);
  check_all(decorate(ints32("2^19 uniform grouped", u), 0.9, 0.0, 8, false, 4), 2);
}

TEST(OrderStatistics, SelectKeysRanksDirectly) {
  std::vector<int64_t> v = {5, -3, 5, 9, -3, 0};
  Data d = ints64("small", v);
  for (const Variant& var : kVariants) {
    SelectOptions o;
    o.algorithm = var.algorithm;
    const std::vector<uint64_t> keys = select_keys(d.input(), {0, 1, 2, 3, 4, 5, kNoRank}, 7, o);
    std::vector<int64_t> got;
    for (size_t i = 0; i < 6; i++) got.push_back(int_from_key(KeyType::kInt64, keys[i]));
    EXPECT_EQ(got, (std::vector<int64_t>{-3, -3, 0, 5, 5, 9})) << var.name;
    EXPECT_EQ(keys[6], 0u);
  }
}

TEST(OrderStatistics, AlgorithmNames) {
  Algorithm a;
  for (const char* n : {"bitwise", "radix", "sort"}) {
    ASSERT_TRUE(parse_algorithm(n, &a));
    EXPECT_STREQ(algorithm_name(a), n);
  }
  EXPECT_FALSE(parse_algorithm("quick", &a));
}

}  // namespace
}  // namespace raydb::test
