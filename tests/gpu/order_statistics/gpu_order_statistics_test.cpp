// GPU order statistics against the reference and against the CPU library, key for
// key: every algorithm (bitwise, radix with histograms, radix with segments, sort) on
// the adversarial sets with WHERE masks, NULLs, few and many groups, k per group; the
// device-resident entry point and the benchmark entry. Without a CUDA device (or a
// build without CUDA) the device tests report SKIPPED; the CPU benchmark test runs.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/cuda/ops/order_statistics_bench.h"
#include "exec/cuda/ops/order_statistics_gpu.h"
#include "exec/order_statistics/reference.h"

namespace raydb::test {
namespace {

using namespace orderstat_ref;
namespace ops = exec::cuda::ops;

#define REQUIRE_GPU()                                                                    \
  do {                                                                                   \
    std::string why;                                                                     \
    if (!ops::order_statistics_gpu_available(&why)) GTEST_SKIP() << "no CUDA device: " << why; \
  } while (0)

struct Variant {
  Algorithm algorithm;
  GroupMode mode;
  const char* name;
  bool plain = true;  // radix with histograms: the plain pass kernel where it applies
};
const Variant kVariants[] = {{Algorithm::kBitwise, GroupMode::kAuto, "bitwise"},
                             {Algorithm::kRadix, GroupMode::kHistograms, "radix/histograms"},
                             {Algorithm::kRadix, GroupMode::kHistograms, "radix/histograms, general pass kernel", false},
                             {Algorithm::kRadix, GroupMode::kSegments, "radix/segments"},
                             {Algorithm::kSort, GroupMode::kAuto, "sort"}};

std::vector<uint64_t> keys_of(const OrderStats& r) {
  std::vector<uint64_t> k;
  for (const OrderStat& s : r.values) k.insert(k.end(), {s.is_null ? 1u : 0u, s.lo_key, s.hi_key});
  return k;
}

void check_gpu(const Data& d) {
  std::vector<int64_t> k_per_group(d.group_count);
  for (uint32_t g = 0; g < d.group_count; g++) k_per_group[g] = int64_t(g % 4) + 1;
  const std::vector<RankSpec> specs = all_specs(&k_per_group);
  const OrderStats cpu = order_statistics(d.input(), specs);
  ASSERT_EQ(check(d, specs, cpu), "");
  for (const Variant& v : kVariants) {
    SelectOptions o;
    o.algorithm = v.algorithm;
    o.group_mode = v.mode;
    o.gpu_plain_pass = v.plain;
    ops::GpuTimes times;
    const OrderStats gpu = ops::gpu_order_statistics_from_host(d.input(), specs, o, &times);
    EXPECT_EQ(check(d, specs, gpu), "") << v.name;
    EXPECT_EQ(keys_of(gpu), keys_of(cpu)) << d.name << ": " << v.name << " on the GPU differs from the CPU";
  }
}

// The radix select with the key range promised, as the star path passes it from the
// column statistics: the leading bits the range shares are skipped, and the answers
// must not change. Also a range wider than the data (a promise, not an equality).
void check_gpu_key_range(const Data& d) {
  ColumnInput in = d.input();
  uint64_t lo = ~uint64_t(0), hi = 0;
  for (uint64_t i = 0; i < in.n; i++)
    if (in.counts(i)) {
      lo = std::min(lo, in.key(i));
      hi = std::max(hi, in.key(i));
    }
  const std::vector<RankSpec> specs = all_specs(nullptr);
  const OrderStats cpu = order_statistics(d.input(), specs);
  SelectOptions o;
  o.algorithm = Algorithm::kRadix;
  o.group_mode = GroupMode::kHistograms;
  for (uint64_t widen : {uint64_t(0), uint64_t(5)}) {
    in.key_lo = lo >= widen ? lo - widen : 0;
    in.key_hi = hi + widen >= hi ? hi + widen : hi;
    EXPECT_EQ(keys_of(ops::gpu_order_statistics_from_host(in, specs, o)), keys_of(cpu))
        << d.name << ": key range [" << in.key_lo << ", " << in.key_hi << "]";
  }
}

TEST(GpuOrderStatistics, AdversarialUngrouped) {
  REQUIRE_GPU();
  for (const Data& d : adversarial_sets()) check_gpu(d);
}

TEST(GpuOrderStatistics, AdversarialMasksNullsGroups) {
  REQUIRE_GPU();
  uint32_t seed = 1;
  for (const Data& base : adversarial_sets()) {
    check_gpu(decorate(base, 0.7, 0.0, 1, false, seed++));
    check_gpu(decorate(base, 1.0, 0.2, 1, false, seed++));
    check_gpu(decorate(base, 0.8, 0.1, 5, true, seed++));
    check_gpu(decorate(base, 1.0, 0.0, 300, true, seed++));  // 300 groups x 28 ranks: segments under kAuto
  }
}

TEST(GpuOrderStatistics, LargeColumns) {
  REQUIRE_GPU();
  std::mt19937_64 rng(3);
  std::vector<int32_t> u(1 << 22), c(1 << 22);
  for (auto& v : u) v = int32_t(uint32_t(rng()));
  for (size_t i = 0; i < c.size(); i++) c[i] = i % 1000 == 0 ? int32_t(i) : 77;
  check_gpu(ints32("2^22 uniform", u));
  check_gpu(ints32("2^22 concentrated", c));
  check_gpu(decorate(ints32("2^22 uniform grouped", u), 0.9, 0.05, 7, false, 4));
  std::vector<int64_t> w(1 << 21);
  for (auto& v : w) v = int64_t(rng());
  check_gpu(decorate(ints64("2^21 int64", w), 0.5, 0.0, 3, false, 5));
  std::vector<int32_t> narrow(1 << 22);
  for (auto& v : narrow) v = int32_t(rng() % 10000000);  // like lo_revenue: 24 of 32 bits vary
  check_gpu_key_range(ints32("2^22 narrow", narrow));
  check_gpu_key_range(decorate(ints32("2^22 narrow grouped", narrow), 0.9, 0.05, 7, false, 6));
  check_gpu_key_range(ints32("2^22 concentrated", c));
  check_gpu_key_range(decorate(ints64("2^21 int64", w), 0.5, 0.0, 3, false, 7));
}

// The plain pass kernel (16-byte key loads) with a WHERE mask, NULLs and a few groups
// (per-group histograms in shared memory): the radix select takes it for every pass
// where the shape allows, and its answers equal the general kernel's and the CPU's,
// key for key. A median alone keeps one owner per group (the kernel's fast loop); all
// specs at once give groups several owners (the kernel's general loop, or the global
// kernel when the histograms outgrow shared memory).
TEST(GpuOrderStatistics, PlainPassMasksNullsGroups) {
  REQUIRE_GPU();
  std::mt19937_64 rng(21);
  const uint64_t n = (uint64_t(1) << 20) + 3;  // a tail beyond the vector loads
  std::vector<int32_t> u(n), dup(n);
  std::vector<int64_t> w(n / 2 + 1);
  for (auto& v : u) v = int32_t(uint32_t(rng()));
  for (auto& v : dup) v = int32_t(rng() % 1000) - 500;  // many duplicates, negative values
  for (auto& v : w) v = int64_t(rng());
  const Data bases[] = {ints32("uniform int32", u), ints32("duplicates int32", dup), ints64("uniform int64", w)};
  struct Shape {
    double keep, null;
    uint32_t groups;
    bool all_plain;  // a median takes the plain kernel in every pass
  };
  const Shape shapes[] = {{0.01, 0, 1, true}, {0.5, 0, 1, true},  {1, 0.2, 1, true},
                          {0.5, 0.1, 7, true}, {1, 0, 7, true},   {0.01, 0, 7, true},
                          {0.9, 0, 40, false}, {0.9, 0.1, 65, false}};
  uint32_t seed = 100;
  for (const Data& base : bases)
    for (const Shape& sh : shapes) {
      const Data d = decorate(base, sh.keep, sh.null, sh.groups, false, seed++);
      for (bool median_only : {true, false}) {
        const std::vector<RankSpec> specs = median_only ? std::vector<RankSpec>{RankSpec::median()} : all_specs(nullptr);
        const OrderStats cpu = order_statistics(d.input(), specs);
        ASSERT_EQ(check(d, specs, cpu), "") << d.name;
        SelectOptions o;
        o.algorithm = Algorithm::kRadix;
        o.group_mode = GroupMode::kHistograms;
        ops::GpuTimes plain, general;
        const OrderStats a = ops::gpu_order_statistics_from_host(d.input(), specs, o, &plain);
        o.gpu_plain_pass = false;
        const OrderStats b = ops::gpu_order_statistics_from_host(d.input(), specs, o, &general);
        EXPECT_EQ(keys_of(a), keys_of(cpu)) << d.name << " median_only=" << median_only << ": plain kernel";
        EXPECT_EQ(keys_of(b), keys_of(cpu)) << d.name << " median_only=" << median_only << ": general kernel";
        EXPECT_GT(plain.radix_passes, 0) << d.name;
        EXPECT_EQ(general.radix_plain_passes, 0) << d.name;
        if (median_only && sh.all_plain) EXPECT_EQ(plain.radix_plain_passes, plain.radix_passes) << d.name;
        if (median_only && sh.groups == 40) EXPECT_GT(plain.radix_plain_passes, 0) << d.name;  // the first pass at least
        if (sh.groups > 64) EXPECT_EQ(plain.radix_plain_passes, 0) << d.name;
      }
    }
}

TEST(GpuOrderStatistics, KeyRangeOnAdversarialSets) {
  REQUIRE_GPU();
  uint32_t seed = 11;
  for (const Data& base : adversarial_sets()) {
    check_gpu_key_range(base);
    check_gpu_key_range(decorate(base, 0.8, 0.1, 5, true, seed++));
  }
}

TEST(GpuOrderStatistics, DeviceResidentSelectKeys) {
  REQUIRE_GPU();
  Data d = ints64("small", {5, -3, 5, 9, -3, 0});
  ops::DeviceColumnCopy copy(d.input());
  EXPECT_EQ(ops::gpu_count_per_group(copy.input()), std::vector<uint64_t>{6});
  for (const Variant& v : kVariants) {
    SelectOptions o;
    o.algorithm = v.algorithm;
    o.group_mode = v.mode;
    o.gpu_plain_pass = v.plain;
    const std::vector<uint64_t> keys = ops::gpu_select_keys(copy.input(), {0, 1, 2, 3, 4, 5, kNoRank}, 7, o);
    std::vector<int64_t> got;
    for (size_t i = 0; i < 6; i++) got.push_back(int_from_key(KeyType::kInt64, keys[i]));
    EXPECT_EQ(got, (std::vector<int64_t>{-3, -3, 0, 5, 5, 9})) << v.name;
    EXPECT_EQ(keys[6], 0u);
  }
}

TEST(GpuOrderStatistics, BenchmarkEntry) {
  ops::OrderStatBenchConfig c;
  c.n = 100000;
  c.reps = 2;
  c.warmup = 0;
  for (const char* device : {"cpu", "cuda"}) {
    c.device = device;
    if (c.device == "cuda" && !ops::order_statistics_gpu_available()) continue;
    for (Algorithm a : {Algorithm::kBitwise, Algorithm::kRadix, Algorithm::kSort}) {
      c.algorithm = a;
      const ops::OrderStatBenchResult r = ops::bench_order_statistics(c);
      EXPECT_EQ(r.ms.size(), 2u);
      EXPECT_FALSE(std::isnan(r.answer));
      c.algorithm = Algorithm::kRadix;
      EXPECT_EQ(ops::bench_order_statistics(c).answer, r.answer) << device << " " << algorithm_name(a);
    }
  }
}

}  // namespace
}  // namespace raydb::test
