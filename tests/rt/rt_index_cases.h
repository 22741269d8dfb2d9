#pragma once
// RT index, its baselines and a tracer against brute force: every result of every
// technique switch is compared with a scan of the key column. Included by test_rt
// (Embree) and test_rt_optix (OptiX, label gpu): the same cases on every tracer.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "access/gpu/gpu_indexes.h"
#include "access/rt_index/baselines.h"
#include "access/rt_index/bucket_rt_index.h"
#include "access/rt_index/key_codec.h"
#include "access/rt_index/rt_index.h"
#include "common/error.h"
#include "rt/mapping/key_grid.h"
#include "rt/tracer.h"

namespace raydb::rt_cases {

using access::AggregateResult;
using access::KeyIndex;
using access::KeyRange;
using access::RowId;
using access::RowIdLists;
using access::RtIndexOptions;

// One tracer kind; SetUp skips (reported as skipped) when it cannot run here.
struct TracerKind {
  const char* name;
  std::unique_ptr<rt::Tracer> (*make)();
  bool (*available)(std::string* why);
};
inline void PrintTo(const TracerKind& k, std::ostream* os) { *os << k.name; }
inline std::string tracer_kind_name(const ::testing::TestParamInfo<TracerKind>& i) { return i.param.name; }

class RtTracerTest : public ::testing::TestWithParam<TracerKind> {
 protected:
  void SetUp() override {
    std::string why;
    if (!GetParam().available(&why)) GTEST_SKIP() << GetParam().name << " tracer unavailable: " << why;
    tracer_ = GetParam().make();
  }
  rt::Tracer& tracer() { return *tracer_; }
  std::unique_ptr<rt::Tracer> make() { return GetParam().make(); }
  std::unique_ptr<rt::Tracer> tracer_;
};

inline constexpr uint64_t P(int e) { return uint64_t{1} << e; }

struct Oracle {
  std::vector<uint64_t> keys;
  std::vector<int64_t> values;
  std::vector<RowId> rows(const KeyRange& q) const {
    std::vector<RowId> out;
    if (q.lo > q.hi) return out;
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] >= q.lo && keys[i] <= q.hi) out.push_back(static_cast<RowId>(i));
    return out;
  }
};

// Compares aggregate and materialized results with the oracle, lookup by lookup.
inline void expect_matches(const KeyIndex& index, const Oracle& o, const std::vector<KeyRange>& lookups) {
  AggregateResult agg;
  index.aggregate(lookups, agg);
  RowIdLists lists;
  index.materialize(lookups, lists);
  ASSERT_EQ(agg.count.size(), lookups.size());
  ASSERT_EQ(lists.offsets.size(), lookups.size() + 1);
  for (size_t i = 0; i < lookups.size(); ++i) {
    const std::vector<RowId> want = o.rows(lookups[i]);
    int64_t want_sum = 0;
    for (RowId r : want) want_sum += o.values.empty() ? 0 : o.values[r];
    SCOPED_TRACE(index.name() + " lookup " + std::to_string(i) + " [" + std::to_string(lookups[i].lo) + ", " +
                 std::to_string(lookups[i].hi) + "]");
    ASSERT_EQ(agg.count[i], want.size());
    ASSERT_EQ(agg.sum[i], want_sum);
    std::vector<RowId> got(lists.rows.begin() + lists.offsets[i], lists.rows.begin() + lists.offsets[i + 1]);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want);
  }
}

// Every technique switch, alone and combined.
inline std::vector<RtIndexOptions> all_configs() {
  std::vector<RtIndexOptions> v;
  RtIndexOptions rx;
  rx.sort_keys = false;
  rx.sorted_probes = false;
  v.push_back(rx);  // RX as published
  RtIndexOptions o;  // default: sorted + compress + closest-hit + sorted probes
  v.push_back(o);
  o.compress_duplicates = false;
  v.push_back(o);
  o.closest_hit_ranges = false;
  v.push_back(o);  // sorted, uncompressed, any-hit
  o.compress_duplicates = true;
  o.sorted_probes = false;
  v.push_back(o);  // sorted, compressed, any-hit
  RtIndexOptions cg;
  cg.bucket_size = 4;
  v.push_back(cg);
  cg.bucket_size = 32;
  cg.compress_duplicates = false;
  v.push_back(cg);
  RtIndexOptions part;
  part.partitions = 4;
  v.push_back(part);
  part.bucket_size = 8;
  part.partitions = 3;
  part.sorted_probes = false;
  v.push_back(part);
  RtIndexOptions box;
  box.primitive = access::RtPrimitive::kBox;
  v.push_back(box);
  box.partitions = 5;
  box.compress_duplicates = false;
  v.push_back(box);
  RtIndexOptions rxbox = rx;
  rxbox.primitive = access::RtPrimitive::kBox;
  rxbox.partitions = 2;
  v.push_back(rxbox);
  RtIndexOptions loose;
  loose.compact = false;
  loose.partitions = 2;
  loose.closest_hit_ranges = false;
  v.push_back(loose);
  return v;
}

inline bool any_hit(const RtIndexOptions& o) { return !o.sort_keys || !o.closest_hit_ranges; }
// RX's any-hit ranges cast one ray per row: keep their ranges to few rows.
inline bool few_rows(const KeyRange& q) { return q.lo > q.hi || (q.hi >> 22) - (q.lo >> 22) <= 64; }

inline void check_all(rt::Tracer& tracer, const Oracle& o, const std::vector<KeyRange>& lookups, bool include_hash = true) {
  std::vector<KeyRange> points, narrow;
  for (const auto& q : lookups) {
    if (q.lo == q.hi) points.push_back(q);
    if (few_rows(q)) narrow.push_back(q);
  }
  for (const auto& opt : all_configs()) {
    access::RtIndex index(tracer, o.keys, o.values, opt);
    expect_matches(index, o, any_hit(opt) ? narrow : lookups);
  }
  // Interval buckets (host build) on this tracer: bucket sizes from one key per bucket
  // to buckets larger than the index.
  const uint32_t buckets[] = {1, 2, 3, 8, 64};
  for (size_t i = 0; i < std::size(buckets); ++i) {
    access::BucketRtIndex index(tracer, o.keys, o.values, buckets[i], i % 2 == 1);
    expect_matches(index, o, lookups);
  }
  // The GPU-resident indexes, next to a GPU tracer (test_rt_optix): rt-gpu (built on
  // the device), sa-gpu, hash-gpu.
  if (tracer.on_gpu()) {
    std::string why;
    EXPECT_TRUE(access::gpu_indexes_available(&why)) << why;
    for (size_t i = 0; i < std::size(buckets); ++i) {
      access::GpuIndexOptions g;
      g.bucket_size = buckets[i];
      g.sorted_probes = i % 2 == 0;
      auto rt = access::make_gpu_rt(tracer, o.keys, o.values, g);
      expect_matches(*rt, o, lookups);
    }
    for (bool sorted : {false, true}) {
      access::GpuIndexOptions g;
      g.sorted_probes = sorted;
      auto sa = access::make_gpu_sorted_array(o.keys, o.values, g);
      expect_matches(*sa, o, lookups);
      if (include_hash) {
        auto h = access::make_gpu_hash(o.keys, o.values, g);
        expect_matches(*h, o, points);
      }
    }
  }
  for (bool sorted : {false, true}) {
    access::SortedArrayIndex sa(o.keys, o.values, {sorted});
    expect_matches(sa, o, lookups);
    if (include_hash) {
      access::HashIndex h(o.keys, o.values, {sorted});
      expect_matches(h, o, points);
    }
  }
}

inline std::vector<uint64_t> boundary_keys() {
  return {0,         1,         P(22) - 1, P(22),     P(22) + 1, P(23) - 1, P(23),     P(23) + 1,
          P(24) - 1, P(24),     P(24) + 1, P(32) - 1, P(32),     P(43) - 1, P(43),     P(43) + 1,
          P(46),     P(46) + 3, P(63) - 1, P(63),     P(63) + 1, ~uint64_t{0} - 1, ~uint64_t{0},
          P(64 - 21) * 5 + P(22) * 7 + 11};
}

inline std::vector<KeyRange> around(const std::vector<uint64_t>& keys) {
  std::vector<KeyRange> q;
  for (uint64_t k : keys) {
    q.push_back({k, k});
    if (k > 0) q.push_back({k - 1, k - 1});
    if (k < ~uint64_t{0}) q.push_back({k + 1, k + 1});
    if (k > 0) q.push_back({k - 1, k});
    if (k < ~uint64_t{0}) q.push_back({k, k + 1});
    if (k >= 3 && k < ~uint64_t{0} - 3) q.push_back({k - 3, k + 3});
    if (k > 0 && k < ~uint64_t{0}) q.push_back({k + 1, k - 1});  // empty (lo > hi)
  }
  return q;
}

TEST_P(RtTracerTest, BoundaryKeys64) {
  Oracle o;
  o.keys = boundary_keys();
  for (size_t i = 0; i < o.keys.size(); ++i) o.values.push_back(static_cast<int64_t>(i * 7 + 1));
  std::vector<KeyRange> q = around(o.keys);
  // Ranges crossing rows and planes, and wide ones (closest-hit and baselines only).
  q.push_back({P(22) - 5, P(22) + 5});
  q.push_back({P(22) - 1, P(44)});
  q.push_back({P(43) - 1, P(43)});
  q.push_back({P(43) - 1, P(46) + 3});
  q.push_back({0, ~uint64_t{0}});
  q.push_back({2, P(22) - 2});
  q.push_back({P(24) + 2, P(32) - 2});  // empty between keys, across many rows
  q.push_back({P(63) + 2, ~uint64_t{0} - 2});
  q.push_back({~uint64_t{0}, ~uint64_t{0}});
  check_all(tracer(), o, q);
}

TEST_P(RtTracerTest, FullRowsAndLongRays) {
  // Keys at both ends of rows (x = 0 and x = 2^22 - 1), so rays of length ~2^22 must
  // include the far key and exclude the next row's first key.
  Oracle o;
  for (uint64_t row : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{5}, P(21) - 1, P(21), P(42) - 1}) {
    o.keys.push_back(row << 22);
    o.keys.push_back((row << 22) + 1);
    o.keys.push_back((row << 22) + rt::mapping::kXMax - 1);
    o.keys.push_back((row << 22) + rt::mapping::kXMax);
  }
  std::vector<KeyRange> q = around(o.keys);
  for (uint64_t k : o.keys) {
    q.push_back({k & ~uint64_t{rt::mapping::kXMax}, k});  // row start .. key
    q.push_back({k, k | rt::mapping::kXMax});             // key .. row end
    q.push_back({(k & ~uint64_t{rt::mapping::kXMax}) + 1, (k | rt::mapping::kXMax) - 1});
  }
  check_all(tracer(), o, q);
}

TEST_P(RtTracerTest, NegativeKeys) {
  Oracle o;
  std::mt19937_64 rng(7);
  std::vector<int64_t> raw = {INT64_MIN, -static_cast<int64_t>(P(46)), -static_cast<int64_t>(P(23)), -1, 0, 1, static_cast<int64_t>(P(23)), INT64_MAX};
  for (int i = 0; i < 300; ++i) raw.push_back(static_cast<int64_t>(rng() % 2000) - 1000);
  for (int64_t v : raw) o.keys.push_back(access::encode_key(v));
  for (size_t i = 0; i < raw.size(); ++i) o.values.push_back(raw[i]);
  std::vector<KeyRange> q = around(std::vector<uint64_t>(o.keys.begin(), o.keys.begin() + 8));
  for (int64_t lo : {-1000, -5, 0, 17}) q.push_back({access::encode_key(lo), access::encode_key(int64_t{lo + 40})});
  check_all(tracer(), o, q);
  // 32-bit signed keys (also dates).
  Oracle o32;
  for (int i = 0; i < 500; ++i) o32.keys.push_back(access::encode_key(static_cast<int32_t>(rng() % 600) - 300));
  o32.keys.push_back(access::encode_key(INT32_MIN));
  o32.keys.push_back(access::encode_key(INT32_MAX));
  std::vector<KeyRange> q32 = around(std::vector<uint64_t>(o32.keys.end() - 2, o32.keys.end()));
  for (int32_t lo = -310; lo < 300; lo += 37)
    q32.push_back({access::encode_key(lo), access::encode_key(static_cast<int32_t>(lo + 20))});
  q32.push_back({access::encode_key(int32_t{-300}), access::encode_key(int32_t{-300})});
  check_all(tracer(), o32, q32);
}

TEST_P(RtTracerTest, HeavyDuplicatesAndRandomBatches) {
  std::mt19937_64 rng(42);
  Oracle o;
  for (int i = 0; i < 4000; ++i) o.keys.push_back(rng() % 97 * 1000003);  // ~41 copies per key
  for (int i = 0; i < 1000; ++i) o.keys.push_back(rng() % 5);  // 200 copies each
  for (size_t i = 0; i < o.keys.size(); ++i) o.values.push_back(static_cast<int64_t>(rng() % 1000) - 500);
  std::vector<KeyRange> q;
  for (int i = 0; i < 400; ++i) {
    const uint64_t a = rng() % (100 * 1000003);
    q.push_back({a, a});
    q.push_back({o.keys[rng() % o.keys.size()], o.keys[rng() % o.keys.size()]});  // some empty
    q.push_back({a, a + rng() % 5000000});
  }
  for (uint64_t k = 0; k < 6; ++k) q.push_back({k, k});
  check_all(tracer(), o, q);
}

TEST_P(RtTracerTest, AllMissesEmptyIndexAndOneKey) {
  Oracle o;
  for (uint64_t k = 0; k < 300; ++k) o.keys.push_back(k * 2 + P(40));
  std::vector<KeyRange> misses;
  for (uint64_t k = 0; k < 300; ++k) misses.push_back({k * 2 + 1 + P(40), k * 2 + 1 + P(40)});
  misses.push_back({0, P(40) - 1});
  misses.push_back({P(40) + 600, ~uint64_t{0}});
  check_all(tracer(), o, misses);

  Oracle empty;
  check_all(tracer(), empty, {{0, 0}, {0, ~uint64_t{0}}, {5, 5}, {~uint64_t{0}, ~uint64_t{0}}});
  Oracle one;
  one.keys = {P(23)};
  one.values = {-9};
  check_all(tracer(), one, around(one.keys));
  Oracle zero;
  zero.keys = {0};
  check_all(tracer(), zero, {{0, 0}, {1, 1}, {0, ~uint64_t{0}}, {1, ~uint64_t{0}}});
  Oracle top;
  top.keys = {~uint64_t{0}, ~uint64_t{0}};
  check_all(tracer(), top, around(top.keys));
  // An empty batch.
  rt::Tracer* tracer = &this->tracer();
  access::RtIndex idx(*tracer, o.keys, {}, {});
  AggregateResult agg;
  idx.aggregate({}, agg);
  EXPECT_TRUE(agg.count.empty());
  RowIdLists lists;
  idx.materialize({}, lists);
  EXPECT_EQ(lists.offsets.size(), 1u);
}

TEST_P(RtTracerTest, DenseRandomKeysLargerBatch) {
  std::mt19937_64 rng(3);
  Oracle o;
  const uint64_t n = 1 << 14;
  for (uint64_t i = 0; i < n; ++i) o.keys.push_back(i * 3 + P(22) - 20000);  // crosses a row boundary
  std::shuffle(o.keys.begin(), o.keys.end(), rng);
  for (uint64_t i = 0; i < n; ++i) o.values.push_back(static_cast<int64_t>(i));
  std::vector<KeyRange> q;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t a = P(22) - 20010 + rng() % (3 * n + 20);
    q.push_back({a, a});
    q.push_back({a, a + rng() % 64});
  }
  check_all(tracer(), o, q);
}

TEST_P(RtTracerTest, InListsAndJoins) {
  std::mt19937_64 rng(9);
  std::vector<uint64_t> build, probe;
  for (int i = 0; i < 3000; ++i) build.push_back(rng() % 1500 + P(23) - 700);
  for (int i = 0; i < 800; ++i) probe.push_back(rng() % 1700 + P(23) - 800);
  auto brute = [](std::span<const uint64_t> l, std::span<const uint64_t> r) {
    std::vector<std::pair<RowId, RowId>> p;
    for (size_t i = 0; i < l.size(); ++i)
      for (size_t j = 0; j < r.size(); ++j)
        if (l[i] == r[j]) p.push_back({static_cast<RowId>(i), static_cast<RowId>(j)});
    return p;
  };
  auto sorted_pairs = [](const access::JoinPairs& jp) {
    std::vector<std::pair<RowId, RowId>> p;
    for (size_t i = 0; i < jp.size(); ++i) p.push_back({jp.probe[i], jp.build[i]});
    std::sort(p.begin(), p.end());
    return p;
  };
  const auto want = brute(probe, build);
  ASSERT_GT(want.size(), 100u);
  rt::Tracer* tracer = &this->tracer();
  for (const auto& opt : all_configs()) {
    for (bool inverse : {false, true}) {
      SCOPED_TRACE(opt.describe() + (inverse ? " inverse" : ""));
      EXPECT_EQ(sorted_pairs(access::rt_join(*tracer, probe, build, opt, inverse)), want);
      EXPECT_EQ(sorted_pairs(access::rt_join(*tracer, build, probe, opt, inverse)), brute(build, probe));
    }
  }
  access::HashIndex h(build, {});
  EXPECT_EQ(sorted_pairs(access::index_join(h, probe)), want);

  // IN-lists, with repeated values inside a list (counted once).
  std::vector<uint64_t> offs = {0}, vals;
  for (int l = 0; l < 50; ++l) {
    const int len = static_cast<int>(rng() % 6);
    for (int k = 0; k < len; ++k) vals.push_back(rng() % 1700 + P(23) - 800);
    if (len > 1) vals.push_back(vals.back());
    offs.push_back(vals.size());
  }
  access::RtIndex idx(*tracer, build, {}, {});
  AggregateResult agg;
  access::aggregate_in_lists(idx, offs, vals, agg);
  RowIdLists lists;
  access::materialize_in_lists(idx, offs, vals, lists);
  for (size_t l = 0; l + 1 < offs.size(); ++l) {
    std::vector<RowId> want_rows;
    for (size_t j = 0; j < build.size(); ++j)
      if (std::find(vals.begin() + offs[l], vals.begin() + offs[l + 1], build[j]) != vals.begin() + offs[l + 1])
        want_rows.push_back(static_cast<RowId>(j));
    EXPECT_EQ(agg.count[l], want_rows.size());
    std::vector<RowId> got(lists.rows.begin() + lists.offsets[l], lists.rows.begin() + lists.offsets[l + 1]);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want_rows);
  }
}

TEST_P(RtTracerTest, RejectsInconsistentSwitches) {
  rt::Tracer* tracer = &this->tracer();
  std::vector<uint64_t> keys = {1, 2, 3};
  RtIndexOptions o;
  o.sort_keys = false;
  o.bucket_size = 4;
  EXPECT_THROW(access::RtIndex(*tracer, keys, {}, o), Error);
  RtIndexOptions a;
  a.closest_hit_ranges = false;
  a.bucket_size = 4;
  EXPECT_THROW(access::RtIndex(*tracer, keys, {}, a), Error);
  access::HashIndex h(keys, {});
  AggregateResult agg;
  const std::vector<KeyRange> range = {{1, 2}};
  EXPECT_THROW(h.aggregate(range, agg), Error);
}

TEST_P(RtTracerTest, StatsAreReported) {
  rt::Tracer* tracer = &this->tracer();
  std::vector<uint64_t> keys(50000);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = i * 11;
  access::RtIndex idx(*tracer, keys, {}, {});
  EXPECT_GT(idx.stats().memory_bytes, keys.size() * 8);
  EXPECT_GE(idx.stats().peak_build_bytes, idx.stats().memory_bytes);
  EXPECT_EQ(idx.primitives(), keys.size());
  RtIndexOptions cg;
  cg.bucket_size = 16;
  access::RtIndex small(*tracer, keys, {}, cg);
  EXPECT_EQ(small.primitives(), (keys.size() + 15) / 16);
}

// The tracer API itself: closest hit, all hits with early stop, instances, boxes.
TEST_P(RtTracerTest, TracerClosestAllHitsInstancesAndBoxes) {
  rt::Tracer* tracer = &this->tracer();
  std::vector<rt::Triangle> tris;
  for (uint32_t x : {3u, 7u, 9u}) tris.push_back(rt::mapping::key_triangle({x, 2, 1}));
  auto a = tracer->build(rt::GeometryInput::of_triangles(tris), {});
  const rt::Ray r = rt::mapping::row_ray(2, 1, 4, 20);
  rt::Hit h = tracer->closest(*a, r);
  ASSERT_TRUE(h.valid());
  EXPECT_EQ(h.primitive, 1u);
  EXPECT_FLOAT_EQ(h.t, 3.5f);
  EXPECT_FALSE(tracer->closest(*a, rt::mapping::row_ray(3, 1, 0, 20)).valid());  // next row
  EXPECT_FALSE(tracer->closest(*a, rt::mapping::row_ray(2, 1, 10, 20)).valid());
  struct Collect : rt::HitSink {
    std::vector<uint32_t> prims;
    size_t stop_after = 100;
    bool on_hit(const rt::Hit& h) override {
      prims.push_back(h.primitive);
      return prims.size() < stop_after;
    }
  } all;
  tracer->all_hits(*a, rt::mapping::row_ray(2, 1, 0, 9), all);
  std::sort(all.prims.begin(), all.prims.end());
  EXPECT_EQ(all.prims, (std::vector<uint32_t>{0, 1, 2}));
  Collect first;
  first.stop_after = 1;
  tracer->all_hits(*a, rt::mapping::row_ray(2, 1, 0, 9), first);
  EXPECT_EQ(first.prims.size(), 1u);

  std::vector<rt::Triangle> tris2 = {rt::mapping::key_triangle({5, 2, 1})};
  auto b = tracer->build(rt::GeometryInput::of_triangles(tris2), {});
  std::vector<const rt::Accel*> kids = {a.get(), b.get()};
  auto inst = tracer->build_instances(kids);
  h = tracer->closest(*inst, r);
  EXPECT_EQ(h.instance, 1u);
  EXPECT_EQ(h.primitive, 0u);

  std::vector<uint64_t> keys = {rt::mapping::compose({4, 2, 1}), rt::mapping::compose({6, 2, 1})};
  std::vector<rt::Aabb> boxes;
  for (uint64_t k : keys) boxes.push_back(rt::mapping::key_box(rt::mapping::decompose(k)));
  auto fn = [](const void* u, uint32_t p, const rt::Ray& ray, float* t) {
    return rt::mapping::intersect_key_box(rt::mapping::decompose(static_cast<const uint64_t*>(u)[p]), ray, t);
  };
  auto c = tracer->build(rt::GeometryInput::of_custom(boxes, fn, keys.data(), keys), {});
  h = tracer->closest(*c, rt::mapping::row_ray(2, 1, 5, 20));
  ASSERT_TRUE(h.valid());
  EXPECT_EQ(h.primitive, 1u);
  Collect boxes_all;
  tracer->all_hits(*c, rt::mapping::row_ray(2, 1, 0, 20), boxes_all);
  EXPECT_EQ(boxes_all.prims.size(), 2u);
  EXPECT_GT(tracer->memory().peak_bytes, 0u);
}

}  // namespace raydb::rt_cases
