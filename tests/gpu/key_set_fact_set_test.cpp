// The star kernels' bitmap of a key-set fact filter built from the set's runs
// (exec/cuda/key_set_fact_set.h), on the host (no device needed): equal to the fact
// set built from the window's stored ranges as before (build_fact_set), taken exactly
// when that one is a bitmap, and every word written when filled into used memory (the
// star pass's pinned staging).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <variant>
#include <vector>

#include "exec/core/column_predicate.h"
#include "exec/core/perfect_set.h"
#include "exec/cuda/fact_set.h"
#include "exec/cuda/key_set_fact_set.h"
#include "exec/cuda/star_plan.h"
#include "plan/physical/physical_planner.h"
#include "storage/table.h"

namespace raydb::exec::cuda {
namespace {

using plan::KeySet;

// `n` keys of TPC-H's sparse order keys (8 used of every 32) drawn with chance `p`, or
// with `runs` in long runs too.
std::vector<int64_t> order_keys(uint64_t orders, double p, uint64_t seed, bool runs = false) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> out;
  for (uint64_t i = 0; i < orders; i++) {
    const bool take = runs ? (i / 64) % 3 == 0 || double(rng() % 1000000) < p * 1e6 : double(rng() % 1000000) < p * 1e6;
    if (take) out.push_back(int64_t((i / 8) * 32 + i % 8 + 1));
  }
  return out;
}

// The fact set of the window's ranges in the stored domain (value - base), as the star
// pass built it before: stored ranges, merged, then build_fact_set.
FactSet from_ranges(const KeySetWindow& w, int64_t base) {
  StoredRanges sr;
  for (auto [a, b] : w.ranges()) sr.emplace_back(uint64_t(a - base), uint64_t(b - base));
  return build_fact_set(merged(sr));
}

void expect_bitmap_equals_ranges(const plan::KeySetPtr& set, bool negated, int64_t min, int64_t max, int64_t base) {
  const KeySetWindow w(*set, negated, min, max);
  ASSERT_FALSE(w.empty());
  const FactSet want = from_ranges(w, base);
  const bool pays = key_set_bitmap_pays(w);
  if (w.size() > kMaxPerfectKeys) EXPECT_EQ(pays, want.kind == FactSet::Kind::kBitmap) << "negated " << negated;
  if (!pays) return;
  const FactSet got = key_set_bitmap(w, base);
  ASSERT_EQ(got.kind, FactSet::Kind::kBitmap);
  EXPECT_EQ(got.lo, want.lo);
  EXPECT_EQ(got.span, want.span);
  ASSERT_EQ(got.bits, want.bits) << "negated " << negated << " window [" << min << ", " << max << "]";
  // Filled into memory that holds other bits (reused staging): the same words, and
  // nothing written past them.
  const BitmapShape shape = key_set_bitmap_shape(w, base);
  EXPECT_EQ(shape.lo, want.lo);
  EXPECT_EQ(shape.span, want.span);
  ASSERT_EQ(shape.words, want.bits.size());
  std::vector<uint32_t> staging(size_t(shape.words) + 3, 0xA5A5A5A5u);
  fill_key_set_bitmap(w, staging.data());
  EXPECT_TRUE(std::equal(want.bits.begin(), want.bits.end(), staging.begin())) << "negated " << negated;
  EXPECT_EQ(staging[size_t(shape.words)], 0xA5A5A5A5u);
  EXPECT_EQ(staging.back(), 0xA5A5A5A5u);
}

// Small sets (one thread) and SF-1-sized ones (over 65,536 ranges: threads own slices
// of words), IN and NOT IN, windows inside and across the set's ends, offset bases.
TEST(CudaAnalysis, KeySetBitmapEqualsFactSetOfItsRanges) {
  for (uint64_t orders : {2000ull, 400000ull, 1500000ull}) {
    for (int mode = 0; mode < 2; mode++) {
      const auto words = order_keys(orders, 0.3, orders + uint64_t(mode), mode == 1);
      const auto set = KeySet::make(Type::bigint(), words, false);
      const int64_t top = words.back() + 40;
      for (bool negated : {false, true}) {
        expect_bitmap_equals_ranges(set, negated, 1, top, 1);
        expect_bitmap_equals_ranges(set, negated, 0, top, -7);
        expect_bitmap_equals_ranges(set, negated, words[words.size() / 3] + 1, words[words.size() / 2] - 1, 5);
      }
    }
  }
}

// Word boundaries: ranges that share a word with their neighbours, a one-word span, a
// last partial word, and slices of words split between threads mid-range.
TEST(CudaAnalysis, KeySetBitmapWordBoundaries) {
  std::mt19937_64 rng(43);
  for (int t = 0; t < 40; t++) {
    std::vector<int64_t> words;
    int64_t v = 1000 + int64_t(rng() % 64);
    const int n = t < 20 ? 200 + int(rng() % 300) : 70000 + int(rng() % 30000);
    for (int i = 0; i < n; i++) {
      const int64_t len = rng() % 5 == 0 ? int64_t(rng() % 100) : int64_t(rng() % 3);
      for (int64_t k = 0; k <= len; k++) words.push_back(v + k);
      v += len + 2 + int64_t(rng() % 40);
    }
    const auto set = KeySet::make(Type::bigint(), words, false);
    for (bool negated : {false, true}) expect_bitmap_equals_ranges(set, negated, words.front() - 3, words.back() + 100, 990);
  }
}

// `select count(*) from t where <conjuncts>` over one integer column `k` of `values`.
std::variant<StarPlan, std::string> analyze_count(const std::vector<int32_t>& values,
                                                  const std::function<std::vector<plan::ExprPtr>(plan::ExprPtr)>& where) {
  auto q = std::make_shared<plan::LogicalQuery>();
  q->tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{make_column("k", Type::integer(), values)})});
  q->conjuncts = where(plan::Expr::column(0, 0, Type::integer(), "k"));
  q->is_aggregate = true;
  q->aggregates.push_back({plan::AggFunc::kCountStar, nullptr, false, {}, Type::bigint(), "count_star()"});
  q->select.push_back(plan::Expr::aggregate_ref(0, Type::bigint(), "count_star()"));
  q->output_names.push_back("n");
  return analyze(plan::plan_query(q, {}));
}

// Root filters x IN set and NOT (x IN set) keep the set (no copy of its ranges) with
// the coverage and ranges ColumnPredicate gives; a set outside the column's values
// rules every row out.
TEST(CudaAnalysis, KeySetFactFiltersKeepTheSet) {
  std::vector<int32_t> values;
  for (int32_t v = 10; v < 5000; v += 3) values.push_back(v);
  std::vector<int64_t> in_words, out_words, far_words;
  for (int64_t v = 0; v < 6000; v += 7) in_words.push_back(v), out_words.push_back(v + 2);
  for (int64_t v = 0; v < 100; v++) far_words.push_back(9000 + v);
  const auto in = KeySet::make(Type::integer(), in_words, false), out = KeySet::make(Type::integer(), out_words, false);
  auto r = analyze_count(values, [&](plan::ExprPtr k) {
    return std::vector<plan::ExprPtr>{plan::Expr::in_key_set(k, in, false),
                                      plan::Expr::logical_not(plan::Expr::in_key_set(k, out, false))};
  });
  ASSERT_TRUE(std::holds_alternative<StarPlan>(r)) << std::get<std::string>(r);
  const StarPlan& sp = std::get<StarPlan>(r);
  ASSERT_EQ(sp.fact_filters.size(), 2u);
  EXPECT_FALSE(sp.always_false);
  plan::LogicalQuery q;
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{make_column("k", Type::integer(), values)})});
  const auto k = plan::Expr::column(0, 0, Type::integer(), "k");
  for (const StarFilter& f : sp.fact_filters) {
    ASSERT_NE(f.key_set, nullptr);
    EXPECT_TRUE(f.ranges.empty());
    const auto e = f.negated ? plan::Expr::logical_not(plan::Expr::in_key_set(k, f.key_set, false))
                             : plan::Expr::in_key_set(k, f.key_set, false);
    EXPECT_EQ(f.key_set, f.negated ? out : in);
    const auto p = ColumnPredicate::compile(*e, q);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(f.value_ranges(), p->ranges());
    EXPECT_EQ(f.coverage, p->coverage());
  }
  const auto far = KeySet::make(Type::integer(), far_words, false);
  auto none = analyze_count(values, [&](plan::ExprPtr k) {
    return std::vector<plan::ExprPtr>{plan::Expr::in_key_set(k, far, false)};
  });
  ASSERT_TRUE(std::holds_alternative<StarPlan>(none)) << std::get<std::string>(none);
  EXPECT_TRUE(std::get<StarPlan>(none).always_false);
}

}  // namespace
}  // namespace raydb::exec::cuda
