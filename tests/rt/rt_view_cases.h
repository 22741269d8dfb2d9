#pragma once
// RT view cases shared by test_rt (Embree) and test_rt_optix (OptiX): a tracer
// parameter, small hand-made star tables, brute-force and CPU-backend oracles.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "access/rt_view/rt_view.h"
#include "access/rt_view/view_groups.h"
#include "access/rt_view/z_intervals.h"
#include "rt/tracer.h"

namespace raydb::rtview_cases {

using namespace raydb::rtview;

struct ViewTracerKind {
  const char* name;
  std::unique_ptr<rt::Tracer> (*make)();
  bool (*available)(std::string* why);
};
inline void PrintTo(const ViewTracerKind& k, std::ostream* os) { *os << k.name; }
inline std::string view_tracer_name(const ::testing::TestParamInfo<ViewTracerKind>& i) { return i.param.name; }

inline std::string i128_string(__int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

// A result as text rows, for comparisons and failure messages.
inline std::vector<std::string> result_lines(const ViewResult& r) {
  std::vector<std::string> out;
  for (const ViewResultRow& row : r.rows) {
    std::string s;
    for (uint32_t c : row.group_codes) s += std::to_string(c) + "|";
    s += "n=" + std::to_string(row.count);
    for (const AggValue& v : row.values) s += v.null ? "|null" : "|" + i128_string(v.i);
    out.push_back(s);
  }
  return out;
}

class RtViewTest : public ::testing::TestWithParam<ViewTracerKind> {
 protected:
  void SetUp() override {
    std::string why;
    if (!GetParam().available(&why)) GTEST_SKIP() << GetParam().name << " tracer unavailable: " << why;
    tracer_ = GetParam().make();
  }
  std::unique_ptr<rt::Tracer> tracer_;
};

// --- Small star tables -------------------------------------------------------------

struct StarTables {
  std::map<std::string, TablePtr> t;
  TableResolver resolver() const {
    return [this](std::string_view n) -> TablePtr {
      auto it = t.find(std::string(n));
      return it == t.end() ? nullptr : it->second;
    };
  }
};

// Dimension d (keys 0..99, every 10th missing from the fact side's view: fact keys run
// to 119, so some fact rows have no partner and leave the inner join), fact f.
inline StarTables synthetic_star(uint32_t seed, size_t rows) {
  std::mt19937_64 rng(seed);
  StarTables s;
  std::vector<int32_t> dk(100), dy(100), ds(100), dz(100);
  for (int i = 0; i < 100; ++i) {
    dk[i] = 99 - i;
    dy[i] = 1990 + static_cast<int32_t>(rng() % 10);
    ds[i] = static_cast<int32_t>(rng() % 7);
    dz[i] = static_cast<int32_t>(rng() % 3);
  }
  auto dict = std::make_shared<Dictionary>(std::vector<std::string>{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST", "OCEANIA", "POLAR"});
  s.t["d"] = std::make_shared<Table>("d", std::vector<ColumnPtr>{make_column("dk", Type::integer(), dk),
      make_column("dy", Type::integer(), dy), make_column("ds", Type::varchar(), ds, dict), make_column("dz", Type::integer(), dz)});
  std::vector<int32_t> fk(rows), fa(rows), fb(rows), v2(rows), v3(rows);
  std::vector<int64_t> v1(rows);
  for (size_t r = 0; r < rows; ++r) {
    fk[r] = static_cast<int32_t>(rng() % 120);
    fa[r] = static_cast<int32_t>(rng() % 40);
    fb[r] = static_cast<int32_t>(rng() % 11) - 5;
    v1[r] = static_cast<int64_t>(rng() % (uint64_t{1} << 41)) - (int64_t{1} << 40);
    v2[r] = static_cast<int32_t>(rng() % 16);
    v3[r] = (1 << 24) - 2 + static_cast<int32_t>(rng() % 5);  // around 2^24
  }
  s.t["f"] = std::make_shared<Table>("f", std::vector<ColumnPtr>{make_column("fk", Type::integer(), fk),
      make_column("fa", Type::integer(), fa), make_column("fb", Type::integer(), fb), make_column("v1", Type::bigint(), v1),
      make_column("v2", Type::integer(), v2), make_column("v3", Type::integer(), v3)});
  return s;
}

inline ViewDefinition synthetic_definition() {
  ViewDefinition d;
  d.name = "syn";
  d.fact = "f";
  d.joins = {{"d", "fk", "dk"}};
  d.filters = {{"d", "dy"}, {"", "fa"}, {"d", "ds"}, {"", "fb"}};
  d.groups = {{"d", "dy"}, {"d", "ds"}, {"d", "dz"}};
  using Op = AggExpr::Op;
  d.inputs = {{"v1", AggExpr::col("v1")}, {"v2", AggExpr::col("v2")}, {"v3", AggExpr::col("v3")},
              {"v1*v2", AggExpr::binary(Op::kMul, AggExpr::col("v1"), AggExpr::col("v2"))},
              {"fa-fb", AggExpr::binary(Op::kSub, AggExpr::col("fa"), AggExpr::col("fb"))}};
  return d;
}

inline ViewRequest random_request(std::mt19937_64& rng, const ViewRows& v) {
  ViewRequest r;
  for (uint32_t a = 0; a < v.filter_domains.size(); ++a) {
    if (rng() % 3 == 0) continue;
    ViewFilter f{a, {}};
    const uint32_t k = v.filter_domains[a].size, n = static_cast<uint32_t>(rng() % 4);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t lo = static_cast<uint32_t>(rng() % (k + 2)), w = static_cast<uint32_t>(rng() % (k / 2 + 2));
      f.allowed.push_back(CodeInterval{lo, rng() % 8 == 0 ? lo - 1 : lo + w});  // some empty, some past the end
    }
    r.filters.push_back(f);
  }
  for (uint32_t g = 0; g < v.group_domains.size(); ++g)
    if (rng() % 2) r.group_by.push_back(g);
  if (rng() % 2) std::reverse(r.group_by.begin(), r.group_by.end());
  r.aggregates.push_back({AggKind::kCount, 0});
  for (int i = 0; i < 4; ++i)
    r.aggregates.push_back({static_cast<AggKind>(1 + rng() % 4), static_cast<uint32_t>(rng() % v.inputs.size())});
  return r;
}

inline void expect_same(const ViewResult& rt, const ViewResult& oracle, const std::string& what) {
  EXPECT_EQ(result_lines(rt), result_lines(oracle)) << what << "\n" << rt.stats.plan;
  for (size_t i = 0; i < rt.rows.size() && i < oracle.rows.size(); ++i)
    for (size_t a = 0; a < rt.rows[i].values.size(); ++a)
      EXPECT_EQ(rt.rows[i].values[a].d, oracle.rows[i].values[a].d) << what;  // AVG, same formula
}

// Random requests on several layouts and switches, each against brute force, with the
// duplicate check on (view_grid.h: every qualifying row is hit exactly once).
inline void run_random_requests(rt::Tracer& tracer, uint32_t seed) {
  const StarTables s = synthetic_star(seed, 3000);
  const auto rows = materialize_view(synthetic_definition(), s.resolver());
  ASSERT_GT(rows->rows, 2000u);
  ASSERT_LT(rows->rows, 3000u);  // inner join dropped fact keys 100..119
  std::vector<LayoutOptions> layouts(7);
  layouts[1].z_mode = ZMode::kSplit;
  layouts[2].z_limit = 400;  // dy, fa in Z; ds, fb residual
  layouts[3].x_bits = 0;     // every input in side arrays
  layouts[4].target_rays = 1;  // one lane
  for (size_t l = 0; l < 5; ++l) layouts[l].merge = MergeMode::kNever;  // one primitive per row (RTCUDB)
  layouts[5].z_limit = 400;  // merged primitives (view_primitives.h) with residual codes
  layouts[6].z_mode = ZMode::kSplit;
  layouts[5].merge = layouts[6].merge = MergeMode::kAlways;  // few rows share a tuple here; merged anyway
  std::mt19937_64 rng(seed);
  for (size_t l = 0; l < layouts.size(); ++l) {
    const RtView view(rows, tracer, layouts[l]);
    if (l < 5) EXPECT_FALSE(view.layout().merged);
    else EXPECT_TRUE(view.layout().merged) << view.stats().layout;
    for (int i = 0; i < 12; ++i) {
      ViewRequest r = random_request(rng, *rows);
      r.check_duplicates = true;
      r.max_intervals = (i % 3 == 0) ? 2 : 4096;  // 2: low digits go to per-hit checks
      r.per_hit_atomics = i % 4 == 1;
      r.prune_groups = i % 2 == 0;
      const ViewResult got = view.query(r);
      expect_same(got, evaluate_brute_force(*rows, r), "layout " + std::to_string(l) + " request " + std::to_string(i) +
                                                           " " + view.stats().layout);
      EXPECT_EQ(got.stats.duplicates, 0u);
    }
  }
}

// --- Boundaries -----------------------------------------------------------------------

inline StarTables boundary_table() {
  const int32_t top = (1 << 23) - 1;  // the largest Z code a view takes
  StarTables s;
  std::vector<int32_t> z0, z1, g, small;
  std::vector<int64_t> big;
  const int32_t zs[4] = {0, 1, top - 1, top};
  const int64_t vs[6] = {(1 << 24) - 1, 1 << 24, (1 << 24) + 1, -(1 << 24), int64_t{1} << 62, INT64_MAX};
  for (int i = 0; i < 48; ++i) {
    z0.push_back(zs[i % 4]);
    z1.push_back((i / 4) % 2);
    g.push_back(i % 3);
    small.push_back(i % 16);
    big.push_back(vs[i % 6]);
  }
  s.t["b"] = std::make_shared<Table>("b", std::vector<ColumnPtr>{make_column("z0", Type::integer(), z0),
      make_column("z1", Type::integer(), z1), make_column("g", Type::integer(), g),
      make_column("small", Type::integer(), small), make_column("big", Type::bigint(), big)});
  return s;
}

inline ViewRequest all_aggregates(std::vector<ViewFilter> f, std::vector<uint32_t> group_by) {
  ViewRequest r;
  r.filters = std::move(f);
  r.group_by = std::move(group_by);
  r.check_duplicates = true;
  for (uint32_t in = 0; in < 2; ++in)
    for (AggKind k : {AggKind::kSum, AggKind::kAvg, AggKind::kMin, AggKind::kMax}) r.aggregates.push_back({k, in});
  r.aggregates.push_back({AggKind::kCount, 0});
  return r;
}

inline void run_boundaries(rt::Tracer& tracer) {
  const StarTables s = boundary_table();
  ViewDefinition d;
  d.fact = "b";
  d.filters = {{"", "z0"}, {"", "z1"}};
  d.groups = {{"", "g"}};
  d.inputs = {{"small", AggExpr::col("small")}, {"big", AggExpr::col("big")}};
  const auto rows = materialize_view(d, s.resolver());
  const uint32_t top = (1u << 23) - 1;
  ASSERT_EQ(rows->filter_domains[0].size, 1u << 23);
  const RtView view(rows, tracer);
  ASSERT_EQ(view.layout().z_attrs.size(), 1u);  // 2^23 * 2 codes do not fit: z1 is checked per hit
  ASSERT_EQ(view.layout().residual.size(), 1u);
  ASSERT_TRUE(view.layout().inputs[0].in_x);    // 4 bits
  ASSERT_FALSE(view.layout().inputs[1].in_x);   // 64 bits: side array
  const std::vector<std::vector<ViewFilter>> filters = {
      {},
      {{0, {{top, top}}}},
      {{0, {{0, 0}}}},
      {{0, {{top - 1, top}}}},
      {{0, {{1, top - 1}}}},              // long: cut into 2^20-code segments
      {{0, {{5, 5}}}},                    // selects nothing
      {{0, {{7, 3}}}},                    // an empty interval
      {{0, {}}},                          // no interval at all
      {{1, {{1, 1}}}},                    // residual attribute
      {{0, {{top, top}, {0, 0}}}, {1, {{0, 0}}}},
  };
  for (size_t i = 0; i < filters.size(); ++i) {
    for (const std::vector<uint32_t>& gb : {std::vector<uint32_t>{}, std::vector<uint32_t>{0}}) {
      const ViewRequest r = all_aggregates(filters[i], gb);
      const ViewResult got = view.query(r);
      expect_same(got, evaluate_brute_force(*rows, r), "boundary filter " + std::to_string(i));
      EXPECT_EQ(got.stats.duplicates, 0u);
    }
  }
  // Exact values: all rows, one group; the sum of big passes 2^63 (128-bit).
  const ViewResult all = view.query(all_aggregates({}, {}));
  ASSERT_EQ(all.rows.size(), 1u);
  EXPECT_EQ(all.rows[0].count, 48u);
  __int128 want = 0;
  for (int64_t v : rows->inputs[1]) want += v;
  EXPECT_GT(want, static_cast<__int128>(INT64_MAX));
  EXPECT_EQ(i128_string(all.rows[0].values[4].i), i128_string(want));
  // Nothing selected, no GROUP BY: one row, count 0, SUM/MIN/MAX/AVG null.
  const ViewResult none = view.query(all_aggregates({{0, {{5, 5}}}}, {}));
  ASSERT_EQ(none.rows.size(), 1u);
  EXPECT_EQ(none.rows[0].count, 0u);
  EXPECT_TRUE(none.rows[0].values[0].null);
  EXPECT_FALSE(none.rows[0].values.back().null);
  // All groups.
  EXPECT_EQ(view.query(all_aggregates({}, {0})).rows.size(), 3u);
  // Merging (view_primitives.h): rows i and i + 24 share every code, so 24 tuples for 48
  // rows would halve the primitives, but their big values sum past int64 (2 x 2^62,
  // 2 x INT64_MAX): the view keeps one primitive per row.
  EXPECT_FALSE(view.layout().merged);
  EXPECT_EQ(view.stats().primitives, 48u);
  // Without big the same rows merge into 24 primitives and answer every request alike.
  d.inputs = {{"small", AggExpr::col("small")}, {"z0", AggExpr::col("z0")}};
  const auto rows2 = materialize_view(d, s.resolver());
  const RtView merged(rows2, tracer);
  ASSERT_TRUE(merged.layout().merged) << merged.stats().layout;
  EXPECT_EQ(merged.stats().primitives, 24u);
  for (size_t i = 0; i < filters.size(); ++i) {
    for (const std::vector<uint32_t>& gb : {std::vector<uint32_t>{}, std::vector<uint32_t>{0}}) {
      const ViewRequest r = all_aggregates(filters[i], gb);
      const ViewResult got = merged.query(r);
      expect_same(got, evaluate_brute_force(*rows2, r), "merged boundary filter " + std::to_string(i));
      EXPECT_EQ(got.stats.duplicates, 0u);
    }
  }
}

// Z digits decoded from the hit distance at the top of the Z range: a (2^21 codes) and
// b (4 codes) fill Z = 2^23 exactly; a cap of one interval leaves b to the per-hit check.
inline void run_z_decoding(rt::Tracer& tracer) {
  StarTables s;
  std::vector<int32_t> a, b, one;
  for (int i = 0; i < 64; ++i) {
    a.push_back(i % 2 == 0 ? (1 << 21) - 1 - i : i - 1);  // codes 0 and 2^21 - 1 occur
    b.push_back(i % 4);
    one.push_back(1);
  }
  s.t["t"] = std::make_shared<Table>("t", std::vector<ColumnPtr>{make_column("a", Type::integer(), a),
      make_column("b", Type::integer(), b), make_column("one", Type::integer(), one)});
  ViewDefinition d;
  d.fact = "t";
  d.filters = {{"", "a"}, {"", "b"}};
  d.inputs = {{"a", AggExpr::col("a")}};
  const auto rows = materialize_view(d, s.resolver());
  const RtView view(rows, tracer);
  ASSERT_EQ(view.layout().z_attrs.size(), 2u);
  ASSERT_EQ(view.layout().z_size, 1u << 23);
  for (uint32_t cap : {1u, 4096u}) {
    ViewRequest r = all_aggregates({{0, {{0, 10}, {(1u << 21) - 20, (1u << 21) - 1}}}, {1, {{1, 1}, {3, 3}}}}, {});
    r.aggregates = {{AggKind::kCount, 0}, {AggKind::kSum, 0}};
    r.max_intervals = cap;
    const ViewResult got = view.query(r);
    expect_same(got, evaluate_brute_force(*rows, r), "z decoding cap " + std::to_string(cap));
    if (cap == 1) EXPECT_EQ(got.stats.z_checks, 1u);
  }
}

// Group pruning (view_group_prune.h): filters on attributes the group decides select
// whole groups before the launch. One group, all groups, none, a decided attribute at
// the top of the Z range (code 2^23 - 1), an attribute that one row keeps from being
// decided, empty intervals; each with pruning on and off against brute force.
inline void run_group_pruning(rt::Tracer& tracer) {
  const int32_t top = (1 << 23) - 1;
  StarTables s;
  std::vector<int32_t> g, region, big, almost, free_attr, v;
  for (int i = 0; i < 600; ++i) {
    const int32_t grp = i % 12;
    g.push_back(grp);
    region.push_back(grp / 4);                     // decided: 3 codes
    big.push_back(grp == 11 ? top : grp);          // decided; group 11 at the top Z code
    almost.push_back(i == 599 ? 7 : grp % 5);      // decided but for one row (group 11 mixes 1 and 7)
    free_attr.push_back((i / 12) % 9);             // not decided
    v.push_back(i % 97);
  }
  s.t["p"] = std::make_shared<Table>("p", std::vector<ColumnPtr>{make_column("g", Type::integer(), g),
      make_column("region", Type::integer(), region), make_column("big", Type::integer(), big),
      make_column("almost", Type::integer(), almost), make_column("free", Type::integer(), free_attr),
      make_column("v", Type::integer(), v)});
  ViewDefinition d;
  d.fact = "p";
  d.filters = {{"", "free"}, {"", "region"}, {"", "almost"}, {"", "big"}};
  d.groups = {{"", "g"}};
  d.inputs = {{"v", AggExpr::col("v")}};
  const auto rows = materialize_view(d, s.resolver());
  ASSERT_EQ(rows->group_count, 12u);
  ASSERT_EQ(rows->group_filter_codes.size(), 4u);
  EXPECT_TRUE(rows->group_filter_codes[0].empty());   // free: mixed in every group
  EXPECT_FALSE(rows->group_filter_codes[1].empty());  // region
  EXPECT_TRUE(rows->group_filter_codes[2].empty());   // almost: one row breaks it
  EXPECT_FALSE(rows->group_filter_codes[3].empty());  // big
  const RtView view(rows, tracer);
  struct Case {
    std::vector<ViewFilter> f;
    uint32_t traced;  // groups traced with pruning on
  };
  const std::vector<Case> cases = {
      {{}, 12},
      {{{1, {{1, 1}}}}, 4},                                  // one region: 4 groups
      {{{1, {{0, 2}}}}, 12},                                 // all groups
      {{{1, {{2, 1}}}}, 0},                                  // an empty interval: nothing
      {{{1, {}}}, 0},                                        // no interval
      {{{3, {{uint32_t(top), uint32_t(top)}}}}, 1},          // the top code: one group
      {{{3, {{5, 5}}}}, 1},
      {{{3, {{12, uint32_t(top) - 1}}}}, 0},                 // codes no group has
      {{{1, {{2, 2}}}, {3, {{10, uint32_t(top)}}}}, 2},      // two decided filters
      {{{1, {{0, 1}}}, {0, {{3, 5}}}, {2, {{1, 1}, {7, 7}}}}, 8},  // with undecided ones
      {{{2, {{7, 7}}}}, 12},                                 // undecided only: one row of group 11
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    for (bool prune : {true, false}) {
      for (const std::vector<uint32_t>& gb : {std::vector<uint32_t>{}, std::vector<uint32_t>{0}}) {
        ViewRequest r = all_aggregates(cases[i].f, gb);
        r.aggregates.resize(4);  // input 0 only
        for (auto& a : r.aggregates) a.input = 0;
        r.prune_groups = prune;
        const ViewResult got = view.query(r);
        const std::string what = "pruning case " + std::to_string(i) + (prune ? " on" : " off");
        expect_same(got, evaluate_brute_force(*rows, r), what);
        EXPECT_EQ(got.stats.duplicates, 0u) << what;
        EXPECT_EQ(got.stats.groups_traced, prune ? cases[i].traced : 12u) << what;
        if (!prune) EXPECT_EQ(got.stats.decided_filters, 0u) << what;
      }
    }
  }
}

// Saved rows load back equal and answer the same.
inline void run_save_load(rt::Tracer& tracer, const std::string& dir) {
  const StarTables s = synthetic_star(7, 500);
  const auto rows = materialize_view(synthetic_definition(), s.resolver());
  save_view_rows(*rows, dir);
  save_view_rows(*rows, dir);  // replaces the first copy
  const auto back = load_view_rows(dir);
  EXPECT_EQ(back->rows, rows->rows);
  EXPECT_EQ(back->filter_codes, rows->filter_codes);
  EXPECT_EQ(back->group_ids, rows->group_ids);
  EXPECT_EQ(back->group_tuples, rows->group_tuples);
  EXPECT_EQ(back->inputs, rows->inputs);
  EXPECT_EQ(back->group_filter_codes, rows->group_filter_codes);  // derived again on load
  EXPECT_EQ(back->group_domains[1].decode(0).to_string(), rows->group_domains[1].decode(0).to_string());
  std::mt19937_64 rng(3);
  const RtView a(rows, tracer), b(back, tracer);
  for (int i = 0; i < 5; ++i) {
    const ViewRequest r = random_request(rng, *rows);
    EXPECT_EQ(result_lines(a.query(r)), result_lines(b.query(r)));
  }
}

}  // namespace raydb::rtview_cases
