// Key sets (plan/logical/key_set.h: a subquery's distinct keys as one array) against
// brute force: membership by bitmap and by binary search, runs, and x [NOT] IN set
// through the generic evaluator and ColumnPredicate, with PostgreSQL's NULL rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

#include "exec/core/column_predicate.h"
#include "exec/core/expression_evaluator.h"
#include "plan/logical/key_set.h"

namespace raydb::exec {
namespace {

using plan::Expr;
using plan::KeySet;

void expect_matches_brute_force(const std::vector<int64_t>& words, const std::vector<int64_t>& probes) {
  auto set = KeySet::make(Type::bigint(), words, false);
  const std::set<int64_t> truth(words.begin(), words.end());
  ASSERT_EQ(set->size(), truth.size());
  EXPECT_TRUE(std::equal(truth.begin(), truth.end(), set->words().begin()));
  for (int64_t p : probes) EXPECT_EQ(set->contains(p), truth.count(p) == 1) << p;
  for (int64_t w : words) EXPECT_TRUE(set->contains(w)) << w;
  // Runs: consecutive words merged, covering exactly the set.
  uint64_t covered = 0;
  for (size_t i = 0; i < set->runs().size(); i++) {
    auto [lo, hi] = set->runs()[i];
    ASSERT_LE(lo, hi);
    if (i > 0) EXPECT_GT(lo, set->runs()[i - 1].second + 1);  // disjoint and not adjacent
    covered += uint64_t(hi - lo) + 1;
  }
  EXPECT_EQ(covered, truth.size());
}

TEST(KeySet, DenseSetsUseABitmapAndMatchBruteForce) {
  std::mt19937_64 rng(12);
  std::vector<int64_t> words, probes;
  for (int i = 0; i < 20000; i++) words.push_back(int64_t(rng() % 60000) - 1000);  // duplicates too
  for (int i = -1200; i < 60000; i += 3) probes.push_back(i);
  expect_matches_brute_force(words, probes);
  EXPECT_FALSE(KeySet::make(Type::bigint(), words, false)->bitmap().empty());
}

TEST(KeySet, SparseSetsUseBinarySearchAndMatchBruteForce) {
  std::mt19937_64 rng(13);
  std::vector<int64_t> words, probes;
  for (int i = 0; i < 5000; i++) words.push_back(int64_t(rng()));  // all of int64
  words.push_back(std::numeric_limits<int64_t>::min());
  words.push_back(std::numeric_limits<int64_t>::max());
  // Neighbours of every word, wrapping at the ends of int64 (signed overflow is undefined).
  for (int64_t w : words) probes.push_back(int64_t(uint64_t(w) + 1)), probes.push_back(int64_t(uint64_t(w) - 1));
  for (int i = 0; i < 5000; i++) probes.push_back(int64_t(rng()));
  expect_matches_brute_force(words, probes);
  EXPECT_TRUE(KeySet::make(Type::bigint(), words, false)->bitmap().empty());
}

// Large unsorted inputs take the radix sort (64 K words and more): spans of a few bits,
// of dense keys (long runs across the parallel slices of runs_of), of order keys (27
// bits) and of all of int64 (every digit pass), duplicates included.
TEST(KeySet, LargeUnsortedSetsMatchBruteForce) {
  std::mt19937_64 rng(14);
  for (uint64_t span : {uint64_t(5), uint64_t(400000), uint64_t(120000000), uint64_t(0)}) {
    std::vector<int64_t> words, probes;
    for (int i = 0; i < 200000; i++) words.push_back(span ? int64_t(rng() % span) - 3 : int64_t(rng()));
    if (!span) words.push_back(std::numeric_limits<int64_t>::min()), words.push_back(std::numeric_limits<int64_t>::max());
    for (int i = 0; i < 2000; i++) probes.push_back(span ? int64_t(rng() % (span + 10)) - 8 : int64_t(rng()));
    expect_matches_brute_force(words, probes);
  }
}

TEST(KeySet, ComparesWithItsWordFamilyOnly) {
  auto ints = KeySet::make(Type::integer(), {1, 2, 3}, false);
  EXPECT_TRUE(ints->comparable_with(Type::bigint()));
  EXPECT_TRUE(ints->comparable_with(Type::integer()));
  EXPECT_FALSE(ints->comparable_with(Type::date()));
  EXPECT_FALSE(ints->comparable_with(Type::decimal(10, 2)));  // scaled words: another value
  EXPECT_FALSE(ints->comparable_with(Type::varchar()));
  EXPECT_TRUE(KeySet::make(Type::date(), {1}, false)->comparable_with(Type::date()));
  EXPECT_FALSE(KeySet::holds(Type::decimal(10, 2)));
  EXPECT_FALSE(KeySet::holds(Type::varchar()));
}

// x [NOT] IN set per row: TRUE when found, NULL when x is NULL or (not found and the set
// holds a NULL), else FALSE; NOT IN negates TRUE and FALSE.
struct Truth {
  bool null;
  bool value;
};
Truth expected(std::optional<int64_t> x, const std::set<int64_t>& keys, bool has_null, bool negated) {
  if (!x) return {true, false};
  if (keys.count(*x)) return {false, !negated};
  if (has_null) return {true, false};
  return {false, negated};
}

TEST(KeySet, EvaluatorAndColumnPredicateFollowSqlNulls) {
  std::mt19937_64 rng(14);
  const size_t n = 5000;
  std::vector<int32_t> xs(n);
  std::vector<uint8_t> x_null(n);
  for (size_t i = 0; i < n; i++) {
    xs[i] = int32_t(rng() % 3000);
    x_null[i] = rng() % 17 == 0;
  }
  // Stored columns are read NOT NULL; a nullable one is read through its flag as the
  // binder does, as CASE WHEN flag = 1 THEN NULL ELSE y END.
  std::vector<int32_t> flags(n);
  for (size_t i = 0; i < n; i++) flags[i] = x_null[i];
  plan::LogicalQuery q;
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{
                                                                 make_column("f", Type::integer(), flags),
                                                                 make_column("y", Type::integer(), xs)})});
  auto y = Expr::column(0, 1, Type::integer(), "y");
  auto x = Expr::case_when({Expr::compare(plan::CompareOp::kEq, Expr::column(0, 0, Type::integer(), "f"),
                                          Expr::constant(Value::integer(1))),
                            Expr::constant(Value::null(Type::integer())), y},
                           true, Type::integer());
  std::vector<int64_t> words;
  for (int i = 0; i < 700; i++) words.push_back(int64_t(rng() % 3000));
  const std::set<int64_t> keys(words.begin(), words.end());
  std::vector<uint32_t> rows(n);
  for (size_t i = 0; i < n; i++) rows[i] = uint32_t(i);
  BatchRows b;
  b.n = n;
  b.rows = {rows.data()};
  EvalContext ctx;
  ctx.query = &q;
  ctx.batch = &b;
  ctx.n = n;
  for (bool has_null : {false, true}) {
    auto set = KeySet::make(Type::integer(), words, has_null);
    for (bool negated : {false, true}) {
      auto e = Expr::in_key_set(x, set, negated);
      Vector v = evaluate(*e, ctx);
      for (size_t i = 0; i < n; i++) {
        const Truth t = expected(x_null[i] ? std::nullopt : std::optional<int64_t>(xs[i]), keys, has_null, negated);
        ASSERT_EQ(v.is_null(i), t.null) << i << " has_null " << has_null << " negated " << negated;
        if (!t.null) ASSERT_EQ(v.ints[i] != 0, t.value) << i;
      }
      // ColumnPredicate compiles the NULL-free set (a NULL in it is left to the evaluator)
      // and keeps exactly the rows where the predicate is TRUE.
      auto ey = Expr::in_key_set(y, set, negated);
      auto p = ColumnPredicate::compile(*ey, q);
      ASSERT_EQ(p.has_value(), !has_null);
      if (!p) continue;
      std::vector<uint32_t> kept(n);
      const size_t m = p->filter_range(0, n, kept.data());
      std::vector<uint32_t> want;
      for (size_t i = 0; i < n; i++)
        if (expected(xs[i], keys, false, negated).value) want.push_back(uint32_t(i));
      ASSERT_EQ(std::vector<uint32_t>(kept.begin(), kept.begin() + long(m)), want);
    }
  }
}

// The ranges of x IN set, x NOT IN set and NOT (x IN set) equal the values of the
// column's [min, max] that brute force says pass, as sorted, disjoint, non-adjacent
// ranges: runs that cross the column's min or max, a set reaching past both ends, a
// set wholly outside, and sets of long runs (the complement's long gaps) and single keys.
void expect_ranges_equal_brute_force(const std::vector<int32_t>& column, const std::vector<int64_t>& words) {
  plan::LogicalQuery q;
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{
                                                                 make_column("k", Type::integer(), column)})});
  const int64_t lo = *std::min_element(column.begin(), column.end());
  const int64_t hi = *std::max_element(column.begin(), column.end());
  const std::set<int64_t> keys(words.begin(), words.end());
  auto set = KeySet::make(Type::integer(), words, false);
  auto k = Expr::column(0, 0, Type::integer(), "k");
  const std::vector<std::pair<plan::ExprPtr, bool>> forms = {{Expr::in_key_set(k, set, false), false},
                                                             {Expr::in_key_set(k, set, true), true},
                                                             {Expr::logical_not(Expr::in_key_set(k, set, false)), true}};
  for (auto& [e, negated] : forms) {
    auto p = ColumnPredicate::compile(*e, q);
    ASSERT_TRUE(p.has_value()) << e->to_string();
    std::vector<std::pair<int64_t, int64_t>> want;
    for (int64_t v = lo; v <= hi; v++) {
      if ((keys.count(v) == 1) == negated) continue;
      if (!want.empty() && want.back().second + 1 == v)
        want.back().second = v;
      else
        want.push_back({v, v});
    }
    ASSERT_EQ(p->ranges(), want) << "negated " << negated << " column [" << lo << ", " << hi << "]";
    for (int64_t v = lo - 3; v <= hi + 3; v++)
      ASSERT_EQ(p->test(v), v >= lo && v <= hi && (keys.count(v) == 1) != negated) << v;
  }
}

TEST(KeySet, ColumnPredicateRangesEqualBruteForceInsideTheColumnsRange) {
  std::mt19937_64 rng(15);
  for (int t = 0; t < 60; t++) {
    const int32_t lo = int32_t(rng() % 500), hi = lo + int32_t(rng() % 3000);
    std::vector<int32_t> column = {lo, hi, int32_t(lo + (hi - lo) / 2)};
    std::vector<int64_t> words;
    int64_t v = lo - 200 + int64_t(rng() % 300);
    const int mode = t % 3;  // single keys, long runs, a mix
    while (v < hi + 200) {
      const int64_t len = mode == 0 ? 1 : mode == 1 ? 1 + int64_t(rng() % 90) : (rng() % 2 ? 1 : 1 + int64_t(rng() % 40));
      for (int64_t i = 0; i < len; i++) words.push_back(v + i);
      v += len + 1 + int64_t(rng() % (mode == 1 ? 90 : 12));
    }
    if (words.size() < KeySet::kMinKeys) continue;
    expect_ranges_equal_brute_force(column, words);
  }
  // Every key outside the column's range, and a set covering it whole.
  std::vector<int64_t> below, all;
  for (int64_t i = 0; i < 100; i++) below.push_back(i);
  for (int64_t i = 990; i < 2100; i++) all.push_back(i);
  expect_ranges_equal_brute_force({1000, 2000}, below);
  expect_ranges_equal_brute_force({1000, 2000}, all);
  // A column of one value, in and not in the set.
  expect_ranges_equal_brute_force({50}, below);
  expect_ranges_equal_brute_force({500}, below);
}

}  // namespace
}  // namespace raydb::exec
