// test_rt_optix (CTest label gpu): every RT index case of test_rt on the OptiX tracer,
// checked against brute force like on Embree. Without a CUDA device, an OptiX driver
// or an OptiX build, each case is reported as skipped (never as passed).
#include "rt/rt_index_cases.h"

namespace raydb::rt_cases {
namespace {

bool optix_available(std::string* why) {
  const rt::OptixDeviceInfo& i = rt::optix_device_info();
  if (!i.available) *why = i.reason;
  return i.available;
}
INSTANTIATE_TEST_SUITE_P(OptiX, RtTracerTest,
                         ::testing::Values(TracerKind{"optix", rt::make_optix_tracer, optix_available}),
                         tracer_kind_name);

// The GPU-resident indexes at a size where the device build's sorts, compression and
// box kernels run many blocks: 2^20 rows with duplicates, 64-bit keys spanning rows
// and planes, point and range lookups up to 1024 hits; checked against the CPU sorted
// array (itself checked against brute force above).
class GpuIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!optix_available(&why) || !access::gpu_indexes_available(&why)) GTEST_SKIP() << why;
  }
};

TEST_F(GpuIndexTest, LargeBatchesMatchTheCpuSortedArray) {
  auto tracer = rt::make_optix_tracer();
  std::mt19937_64 rng(11);
  for (int bits : {32, 64}) {
    const uint64_t base = bits == 64 ? P(43) - P(30) : 0;
    const size_t n = size_t{1} << 20;
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) keys[i] = base + (rng() % (n / 2)) * (bits == 64 ? 4099 : 3);
    std::vector<int64_t> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = static_cast<int64_t>(rng() % 2001) - 1000;
    std::vector<KeyRange> points, ranges;
    for (int i = 0; i < 200000; ++i) {
      const uint64_t k = rng() % 2 ? keys[rng() % n] : base + rng() % (n * (bits == 64 ? 2100 : 2));
      points.push_back({k, k});
      ranges.push_back({k, k + rng() % (bits == 64 ? 1024 * 4099 : 3 * 1024)});
    }
    ranges.push_back({0, ~uint64_t{0}});
    access::SortedArrayIndex ref(keys, values, {});
    AggregateResult want_p, want_r;
    ref.aggregate(points, want_p);
    ref.aggregate(ranges, want_r);
    RowIdLists want_rows;
    ref.materialize(ranges, want_rows);
    for (uint32_t b : {1u, 16u, 64u, 256u, 4096u, 16384u}) {
      for (bool sorted : {false, true}) {
        access::GpuIndexOptions g;
        g.bucket_size = b;
        g.sorted_probes = sorted;
        std::vector<std::unique_ptr<KeyIndex>> indexes;
        indexes.push_back(access::make_gpu_rt(*tracer, keys, values, g));
        if (b == 1) indexes.push_back(access::make_gpu_sorted_array(keys, values, g));
        for (const auto& idx : indexes) {
          SCOPED_TRACE(idx->name() + " bits " + std::to_string(bits));
          AggregateResult got;
          idx->aggregate(points, got);
          ASSERT_EQ(got.count, want_p.count);
          ASSERT_EQ(got.sum, want_p.sum);
          idx->aggregate(ranges, got);
          ASSERT_EQ(got.count, want_r.count);
          ASSERT_EQ(got.sum, want_r.sum);
          RowIdLists rows;
          idx->materialize(ranges, rows);
          ASSERT_EQ(rows.offsets, want_rows.offsets);
          // Rows of one lookup are in sorted-key order on both (stable: ties by row id).
          ASSERT_EQ(rows.rows, want_rows.rows);
          EXPECT_GT(idx->stats().memory_bytes, n * 12);
          EXPECT_GT(idx->last_lookup_times().launch_ms, 0.0);
        }
      }
    }
    auto h = access::make_gpu_hash(keys, values, {});
    AggregateResult got;
    h->aggregate(points, got);
    ASSERT_EQ(got.count, want_p.count);
    ASSERT_EQ(got.sum, want_p.sum);
    try {
      h->aggregate(ranges, got);
      FAIL() << "hash-gpu answered range lookups";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented);
    }
  }
}

TEST_F(GpuIndexTest, EmptyIndexEmptyBatchAndAllMisses) {
  auto tracer = rt::make_optix_tracer();
  const std::vector<uint64_t> none;
  auto rt_empty = access::make_gpu_rt(*tracer, none, {}, {});
  AggregateResult got;
  rt_empty->aggregate(std::vector<KeyRange>{{0, 0}, {0, ~uint64_t{0}}}, got);
  EXPECT_EQ(got.count, (std::vector<uint64_t>{0, 0}));
  const std::vector<uint64_t> keys = {P(40), P(40) + 2};
  for (auto& idx : {access::make_gpu_rt(*tracer, keys, {}, {}), access::make_gpu_sorted_array(keys, {}, {}),
                    access::make_gpu_hash(keys, {}, {})}) {
    idx->aggregate({}, got);
    EXPECT_TRUE(got.count.empty());
    RowIdLists rows;
    idx->materialize(std::vector<KeyRange>{{1, 1}, {P(40) + 1, P(40) + 1}, {~uint64_t{0}, ~uint64_t{0}}}, rows);
    EXPECT_EQ(rows.offsets, (std::vector<uint64_t>{0, 0, 0, 0}));
    EXPECT_TRUE(rows.rows.empty());
  }
}

TEST(OptixInfo, ReportsRtCores) {
  const rt::OptixDeviceInfo& i = rt::optix_device_info();
  if (!i.available) GTEST_SKIP() << i.reason;
  std::printf("OptiX device: %s, RT core version %u\n", i.device.c_str(), i.rtcore_version);
  EXPECT_FALSE(i.device.empty());
}

}  // namespace
}  // namespace raydb::rt_cases
