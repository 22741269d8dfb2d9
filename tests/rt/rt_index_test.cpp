// test_rt: the key grid and key codec, and every RT index case (rt_index_cases.h) on
// the Embree tracer, which CI runs.
#include <cmath>

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

// Interval buckets (bucket_grid.h): the boxes of [lo, hi] contain the grid point of
// every key of the interval (checked at its ends, next to row and plane borders, and at
// random) and of no key outside it, and their corners are exact floats.
TEST(BucketGrid, IntervalBoxesCoverExactlyTheInterval) {
  namespace mp = rt::mapping;
  auto inside = [](const rt::Aabb& b, uint64_t k) {
    const auto g = mp::decompose(k);
    const float x = static_cast<float>(g.x), y = static_cast<float>(g.y), z = static_cast<float>(g.z);
    return b.lo.x <= x && x <= b.hi.x && b.lo.y <= y && y <= b.hi.y && b.lo.z <= z && z <= b.hi.z;
  };
  auto covered = [&](const rt::Aabb* boxes, int n, uint64_t k) {
    int c = 0;
    for (int i = 0; i < n; ++i) c += inside(boxes[i], k);
    return c;
  };
  std::mt19937_64 rng(5);
  std::vector<std::pair<uint64_t, uint64_t>> intervals = {
      {0, 0}, {0, ~uint64_t{0}}, {5, 9}, {P(22) - 1, P(22)}, {P(22) - 3, P(22) * 5 + 2}, {P(43) - 1, P(43)},
      {P(43) - 5, P(43) * 3 + P(22) * 2 + 7}, {1, P(63)}, {P(63), ~uint64_t{0}}, {P(46) + 3, P(46) + 3}};
  for (int i = 0; i < 2000; ++i) {
    uint64_t a = rng() >> (rng() % 64), b = rng() >> (rng() % 64);
    if (a > b) std::swap(a, b);
    intervals.push_back({a, b});
  }
  for (auto [lo, hi] : intervals) {
    rt::Aabb boxes[mp::kMaxIntervalBoxes];
    const int n = mp::interval_boxes(lo, hi, boxes);
    ASSERT_GE(n, 1);
    ASSERT_LE(n, mp::kMaxIntervalBoxes);
    for (int i = 0; i < n; ++i)
      for (float c : {boxes[i].lo.x, boxes[i].lo.y, boxes[i].lo.z, boxes[i].hi.x, boxes[i].hi.y, boxes[i].hi.z})
        ASSERT_EQ(static_cast<double>(c) * 4, std::floor(static_cast<double>(c) * 4)) << "quarter multiple";
    std::vector<uint64_t> in = {lo, hi};
    for (uint64_t k : {lo + 1, hi - 1, (lo | mp::kXMax), (lo | mp::kXMax) + 1, (hi & ~uint64_t{mp::kXMax}),
                       (hi & ~uint64_t{mp::kXMax}) - 1, lo + (hi - lo) / 2, (lo | (P(43) - 1)), (lo | (P(43) - 1)) + 1})
      if (k >= lo && k <= hi) in.push_back(k);
    for (int r = 0; r < 8; ++r) in.push_back(lo + (hi - lo == ~uint64_t{0} ? rng() : rng() % (hi - lo + 1)));
    for (uint64_t k : in) ASSERT_EQ(covered(boxes, n, k), 1) << "key " << k << " of [" << lo << ", " << hi << "]";
    if (lo > 0) {
      ASSERT_EQ(covered(boxes, n, lo - 1), 0) << "[" << lo << ", " << hi << "]";
    }
    if (hi < ~uint64_t{0}) {
      ASSERT_EQ(covered(boxes, n, hi + 1), 0) << "[" << lo << ", " << hi << "]";
    }
  }
}

// The bucket intersection program accepts exactly the point rays of the keys its
// bucket covers.
TEST(BucketGrid, IntersectionTestsKeysInIntegers) {
  namespace mp = rt::mapping;
  const std::vector<uint64_t> units = {3, 10, P(22) - 1, P(22), P(43) + 5, ~uint64_t{0} - 1};
  const std::vector<uint32_t> prim_bucket = {0, 1, 2};
  const mp::BucketTable t{units.data(), prim_bucket.data(), 6, 2, 3, 3, nullptr};
  for (uint64_t q : {uint64_t{0}, uint64_t{3}, uint64_t{4}, uint64_t{10}, uint64_t{11}, P(22) - 1, P(22), P(22) + 1,
                     P(43) + 5, P(43) + 6, ~uint64_t{0} - 1, ~uint64_t{0}}) {
    const rt::Ray r = mp::point_ray(mp::decompose(q));
    for (uint32_t p = 0; p < 3; ++p) {
      float hit = 0;
      const bool want = (p == 0 && q <= 10) || (p == 1 && q > 10 && q <= P(22)) ||
                        (p == 2 && q > P(22) && q <= ~uint64_t{0} - 1);
      EXPECT_EQ(mp::intersect_bucket_box(t, p, r, &hit), want) << "key " << q << " primitive " << p;
    }
  }
}

// The bucket search of bucket_lookup.h: exact from every guess, on clustered keys too.
TEST(BucketGrid, LowerBoundNearIsExactFromAnyGuess) {
  namespace mp = rt::mapping;
  std::mt19937_64 rng(8);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint64_t> keys;
    const int n = 1 + static_cast<int>(rng() % 300);
    for (int i = 0; i < n; ++i) keys.push_back(round % 2 ? rng() % 1000 : rng() >> (rng() % 64));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const uint32_t e = static_cast<uint32_t>(keys.size());
    for (int q = 0; q < 50; ++q) {
      const uint64_t lo = q % 3 == 0 ? keys[rng() % e] : (rng() % 2 ? rng() % (keys.back() + 1) : keys.back());
      const uint32_t want = static_cast<uint32_t>(std::lower_bound(keys.begin(), keys.end(), lo) - keys.begin());
      for (uint32_t g : {0u, e - 1, static_cast<uint32_t>(rng() % e), want < e ? want : e - 1})
        ASSERT_EQ(mp::lower_bound_near(keys.data(), 0, e, g, lo), want) << "guess " << g << " lo " << lo;
    }
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
