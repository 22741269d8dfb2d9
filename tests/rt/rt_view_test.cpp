// RT views (RTCUDB) on the Embree tracer: random requests and boundaries against brute
// force, save/load, and the 13 SSB queries against the CPU backend at SF 0.01.
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "access/rt_view/dense_ids.h"
#include "access/rt_view/view_bench.h"
#include "rt/rt_view_cases.h"
#include "rt/rt_view_ssb_cases.h"
#include "support/test_support.h"

namespace raydb::rtview_cases {
namespace {

bool embree_available(std::string*) { return true; }

TEST_P(RtViewTest, RandomRequestsMatchBruteForce) { run_random_requests(*tracer_, 11); }
TEST_P(RtViewTest, BoundariesOfTheEncodings) { run_boundaries(*tracer_); }
TEST_P(RtViewTest, ZDigitsDecodedFromTheHitDistance) { run_z_decoding(*tracer_); }
TEST_P(RtViewTest, GroupPruningBoundaries) { run_group_pruning(*tracer_); }
TEST_P(RtViewTest, SavedRowsLoadBackAndAnswerTheSame) {
  const std::string dir = std::filesystem::temp_directory_path() / ("raydb_rtview_" + std::to_string(::getpid()));
  run_save_load(*tracer_, dir);
  std::filesystem::remove_all(dir);
}
TEST_P(RtViewTest, SsbQueriesEqualTheCpuBackend) {
  int done = 0;
  run_ssb_flights(*tracer_, "0.01", &done);
  EXPECT_EQ(done, 39);  // 13 queries: encoding and splitting pruned, encoding unpruned
}

INSTANTIATE_TEST_SUITE_P(Embree, RtViewTest, ::testing::Values(ViewTracerKind{"embree", rt::make_embree_tracer, embree_available}),
                         view_tracer_name);

TEST(RtViewZ, IntervalsOfTheMixedRadixCode) {
  // Domains 3 x 4 x 5 (Z = 20a + 5b + c): a in {1}, c in [1, 2] -> 4 intervals (b open).
  ViewRows v;
  v.filter_domains.resize(3);
  v.filter_domains[0].size = 3;
  v.filter_domains[1].size = 4;
  v.filter_domains[2].size = 5;
  ViewLayout L;
  L.z_attrs = {0, 1, 2};
  L.z_div = {20, 5, 1};
  L.z_size = 60;
  ViewRequest r;
  r.filters = {{0, {{1, 1}}}, {2, {{1, 2}}}};
  ZPlan z = plan_z(v, L, r);
  ASSERT_EQ(z.intervals.size(), 4u);
  EXPECT_EQ(z.intervals[0].lo, 21u);
  EXPECT_EQ(z.intervals[3].hi, 37u);
  r.max_intervals = 2;  // c is left to the hit program: one interval [20, 39]
  z = plan_z(v, L, r);
  ASSERT_EQ(z.intervals.size(), 1u);
  EXPECT_EQ(z.intervals[0].lo, 20u);
  EXPECT_EQ(z.intervals[0].hi, 39u);
  EXPECT_EQ(z.checked_digits, std::vector<uint32_t>{2});
  r.filters = {{1, {{3, 1}}}};  // empty
  EXPECT_TRUE(plan_z(v, L, r).empty);
  EXPECT_EQ(cut_segments({{0, 10}}, 4).size(), 3u);
}

}  // namespace
}  // namespace raydb::rtview_cases

namespace raydb::rtview_cases {
namespace {

// No GROUP BY (SSB flight 1's shape): per-ray partials and per-hit atomics agree, and
// the hit counter equals the brute-force row count.
TEST(RtViewAccumulation, PerRayAndPerHitAgreeWithoutGroupBy) {
  auto tracer = rt::make_embree_tracer();
  const StarTables s = synthetic_star(5, 4000);
  const auto rows = materialize_view(synthetic_definition(), s.resolver());
  const RtView view(rows, *tracer);
  ViewRequest r;
  r.filters = {{1, {{0, 30}}}};
  r.aggregates = {{AggKind::kSum, 0}, {AggKind::kCount, 0}};
  const AccumulationTiming t = bench_accumulation(view, r, 2);
  EXPECT_TRUE(t.equal);
  EXPECT_EQ(t.hits, evaluate_brute_force(*rows, r).rows.at(0).count);
  EXPECT_GT(t.rays, 1u);  // lanes spread the single group over many rays
}

}  // namespace
}  // namespace raydb::rtview_cases

namespace raydb::rtview {
namespace {

// densify against a map of (id, code) pairs in order, on each of its three paths: the
// mark array (small range), a code that follows from the id (no renumbering), and the
// sort (large range, new tuples).
TEST(DenseIds, EveryPathNumbersTuplesInLexicographicOrder) {
  std::mt19937_64 rng(7);
  const size_t n = 200000;
  struct Case {
    uint64_t count, radix;
    bool follows;
  };
  for (const Case c : {Case{50, 40, false}, Case{90000, 60000, true}, Case{90000, 60000, false}}) {
    std::vector<uint32_t> ids(n), code(n);
    std::vector<uint32_t> code_of(c.count);
    for (auto& x : code_of) x = static_cast<uint32_t>(rng() % c.radix);
    for (size_t r = 0; r < n; ++r) {
      ids[r] = static_cast<uint32_t>(r < c.count ? r : rng() % c.count);  // every id occurs
      code[r] = c.follows ? code_of[ids[r]] : static_cast<uint32_t>(rng() % c.radix);
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> order;
    for (size_t r = 0; r < n; ++r) order[{ids[r], code[r]}] = 0;
    uint32_t next = 0;
    for (auto& [k, v] : order) v = next++;
    std::vector<uint32_t> got = ids;
    const uint64_t distinct = densify(got, code, c.count, c.radix);
    ASSERT_EQ(distinct, order.size()) << c.count << " x " << c.radix;
    for (size_t r = 0; r < n; ++r) ASSERT_EQ(got[r], (order[{ids[r], code[r]}])) << "row " << r;
    if (c.follows) EXPECT_EQ(got, ids);
  }
}

}  // namespace
}  // namespace raydb::rtview
