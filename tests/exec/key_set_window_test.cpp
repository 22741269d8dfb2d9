// A key set's window over a column's [min, max] (exec/core/key_set_window.h) against
// brute force: its ranges, their count, ends and coverage for x IN set and x NOT IN
// set, at the ends of int64, and which predicates are recognized as key sets.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

#include "exec/core/column_predicate.h"
#include "exec/core/key_set_window.h"
#include "plan/logical/key_set.h"

namespace raydb::exec {
namespace {

using plan::Expr;
using plan::KeySet;
using Ranges = std::vector<std::pair<int64_t, int64_t>>;

// The maximal runs of values in [min, max] that pass, scanning every value.
Ranges brute_force(const std::set<int64_t>& keys, bool negated, int64_t min, int64_t max) {
  Ranges out;
  for (int64_t v = min; v <= max; v++) {
    if ((keys.count(v) == 1) == negated) continue;
    if (!out.empty() && out.back().second + 1 == v)
      out.back().second = v;
    else
      out.push_back({v, v});
  }
  return out;
}

void expect_window_equals_brute_force(const std::vector<int64_t>& words, int64_t min, int64_t max) {
  const auto set = KeySet::make(Type::bigint(), words, false);
  const std::set<int64_t> keys(words.begin(), words.end());
  for (bool negated : {false, true}) {
    const KeySetWindow w(*set, negated, min, max);
    const Ranges want = brute_force(keys, negated, min, max);
    ASSERT_EQ(w.ranges(), want) << "negated " << negated << " window [" << min << ", " << max << "]";
    ASSERT_EQ(w.size(), want.size());
    ASSERT_EQ(w.empty(), want.empty());
    if (!want.empty()) {
      EXPECT_EQ(w.lo(), want.front().first);
      EXPECT_EQ(w.hi(), want.back().second);
    }
    long double covered = 0;
    for (auto [a, b] : want) covered += (long double)b - (long double)a + 1;
    const double coverage = min > max ? 0 : double(covered / ((long double)max - (long double)min + 1));
    EXPECT_EQ(w.coverage(), coverage) << "negated " << negated;
  }
}

TEST(KeySetWindow, RangesEqualBruteForce) {
  std::mt19937_64 rng(41);
  for (int t = 0; t < 300; t++) {
    std::vector<int64_t> words;
    int64_t v = int64_t(rng() % 100);
    const int mode = t % 3;  // single keys, long runs, a mix
    while (v < 3000) {
      const int64_t len = mode == 0 ? 1 : mode == 1 ? 1 + int64_t(rng() % 60) : (rng() % 2 ? 1 : 1 + int64_t(rng() % 20));
      for (int64_t i = 0; i < len; i++) words.push_back(v + i);
      v += len + 1 + int64_t(rng() % 30);
    }
    // Windows inside, across either end, past both ends, wholly outside, one value, empty.
    const int64_t a = int64_t(rng() % 3400) - 200, b = a + int64_t(rng() % 3400);
    expect_window_equals_brute_force(words, a, b);
    expect_window_equals_brute_force(words, a, a);
    expect_window_equals_brute_force(words, words.front(), words.back());
    expect_window_equals_brute_force(words, words.back() + 1, words.back() + 50);
    expect_window_equals_brute_force(words, b, a - 1);
  }
}

TEST(KeySetWindow, EndsOfInt64) {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  // Runs that hold the smallest and largest int64: NOT IN leaves only the gap between.
  const auto set = KeySet::make(Type::bigint(), {lo, lo + 1, -5, -4, 7, hi - 1, hi}, false);
  const KeySetWindow in(*set, false, lo, hi);
  EXPECT_EQ(in.ranges(), (Ranges{{lo, lo + 1}, {-5, -4}, {7, 7}, {hi - 1, hi}}));
  const KeySetWindow out(*set, true, lo, hi);
  EXPECT_EQ(out.ranges(), (Ranges{{lo + 2, -6}, {-3, 6}, {8, hi - 2}}));
  const KeySetWindow edge(*set, true, lo, lo + 1);  // wholly inside the set
  EXPECT_TRUE(edge.empty());
  const auto zero = KeySet::make(Type::bigint(), {0}, false);  // outlives the window, which points into it
  const KeySetWindow all(*zero, true, lo, hi);
  EXPECT_EQ(all.ranges(), (Ranges{{lo, -1}, {1, hi}}));
  EXPECT_EQ(all.coverage(), double(((long double)hi - (long double)lo) / ((long double)hi - (long double)lo + 1)));
}

// x IN set, x NOT IN set and NOT (x IN set) are key-set predicates with ColumnPredicate's
// ranges; a set holding NULL, a set of another word family and a non-column are not.
TEST(KeySetWindow, MatchesWhatColumnPredicateCompilesFromTheSet) {
  plan::LogicalQuery q;
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{make_column(
                                                                 "k", Type::integer(), std::vector<int32_t>{5, 900})})});
  std::vector<int64_t> words;
  for (int64_t i = 0; i < 400; i++) words.push_back(i * 3 + (i % 5 == 0));
  const auto set = KeySet::make(Type::integer(), words, false);
  const auto k = Expr::column(0, 0, Type::integer(), "k");
  const std::vector<std::pair<plan::ExprPtr, bool>> forms = {{Expr::in_key_set(k, set, false), false},
                                                             {Expr::in_key_set(k, set, true), true},
                                                             {Expr::logical_not(Expr::in_key_set(k, set, false)), true},
                                                             {Expr::logical_not(Expr::in_key_set(k, set, true)), false}};
  for (auto& [e, negated] : forms) {
    const auto m = match_key_set_predicate(*e, q);
    ASSERT_TRUE(m.has_value()) << e->to_string();
    EXPECT_EQ(m->negated, negated) << e->to_string();
    EXPECT_EQ(m->table, 0);
    EXPECT_EQ(m->column, 0);
    EXPECT_EQ(m->set, set);
    const auto p = ColumnPredicate::compile(*e, q);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(KeySetWindow(*set, negated, 5, 900).ranges(), p->ranges()) << e->to_string();
    EXPECT_EQ(KeySetWindow(*set, negated, 5, 900).coverage(), p->coverage()) << e->to_string();
  }
  EXPECT_FALSE(match_key_set_predicate(*Expr::in_key_set(k, KeySet::make(Type::integer(), words, true), false), q));
  EXPECT_FALSE(match_key_set_predicate(*Expr::in_key_set(k, KeySet::make(Type::date(), words, false), false), q));
  EXPECT_FALSE(match_key_set_predicate(*Expr::compare(plan::CompareOp::kEq, k, Expr::constant(Value::integer(1))), q));
}

}  // namespace
}  // namespace raydb::exec
