// test_rt: the key grid and key codec, and every RT index case (rt_index_cases.h) on
// the Embree tracer, which CI runs.
#include "rt/rt_index_cases.h"

namespace raydb::rt_cases {
namespace {

TEST(KeyGrid, DecompositionIsExactAndOrderPreserving) {
  std::mt19937_64 rng(1);
  std::vector<uint64_t> keys = boundary_keys();
  for (int i = 0; i < 10000; ++i) keys.push_back(rng() >> (rng() % 64));
  for (uint64_t k : keys) {
    const auto g = rt::mapping::decompose(k);
    ASSERT_EQ(rt::mapping::compose(g), k);
    ASSERT_LE(g.x, rt::mapping::kXMax);
    // Coordinates and the +-0.5 / +-0.25 offsets are exact floats.
    for (uint32_t c : {g.x, g.y, g.z}) {
      ASSERT_EQ(static_cast<double>(static_cast<float>(c) - 0.5f), static_cast<double>(c) - 0.5);
      ASSERT_EQ(static_cast<double>(static_cast<float>(c) + 0.25f), static_cast<double>(c) + 0.25);
    }
    const rt::Ray r = rt::mapping::row_ray(g.y, g.z, 0, rt::mapping::kXMax);
    ASSERT_EQ(static_cast<double>(r.tmax), static_cast<double>(rt::mapping::kXMax) + 1.0);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < keys.size(); ++i) {
    const auto a = rt::mapping::decompose(keys[i - 1]), b = rt::mapping::decompose(keys[i]);
    ASSERT_LE(std::tie(a.z, a.y, a.x), std::tie(b.z, b.y, b.x));
  }
}

TEST(KeyCodec, SignedAndDateOrderIsPreserved) {
  const std::vector<int64_t> v = {INT64_MIN, INT64_MIN + 1, -static_cast<int64_t>(P(46)), -1, 0, 1, static_cast<int64_t>(P(23)), INT64_MAX};
  for (size_t i = 1; i < v.size(); ++i) EXPECT_LT(access::encode_key(v[i - 1]), access::encode_key(v[i]));
  const std::vector<int32_t> w = {INT32_MIN, -100000, -1, 0, 1, 19920101, INT32_MAX};
  for (size_t i = 1; i < w.size(); ++i) EXPECT_LT(access::encode_key(w[i - 1]), access::encode_key(w[i]));
  for (int32_t x : w) EXPECT_EQ(access::decode_int32(access::encode_key(x)), x);
  for (int64_t x : v) EXPECT_EQ(access::decode_int64(access::encode_key(x)), x);
  uint64_t lo, hi;
  ASSERT_TRUE(access::encode_range(access::KeyType::kInt32, -5, INT64_MAX, &lo, &hi));
  EXPECT_EQ(lo, access::encode_key(int32_t{-5}));
  EXPECT_EQ(hi, access::encode_key(INT32_MAX));
  EXPECT_FALSE(access::encode_range(access::KeyType::kUInt32, -10, -1, &lo, &hi));
  const std::vector<int32_t> dates = {8036, -3, 8035};
  const auto enc = access::encode_keys(access::KeyType::kDate, dates.data(), dates.size());
  EXPECT_LT(enc[1], enc[2]);
  EXPECT_LT(enc[2], enc[0]);
}

bool embree_available(std::string*) { return true; }
INSTANTIATE_TEST_SUITE_P(Embree, RtTracerTest,
                         ::testing::Values(TracerKind{"embree", rt::make_embree_tracer, embree_available}),
                         tracer_kind_name);

}  // namespace
}  // namespace raydb::rt_cases
