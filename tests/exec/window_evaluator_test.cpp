// The window operator's frames against brute force: random partitions, order keys
// with ties, NULL arguments, every ROWS bound combination and the RANGE peer frames;
// COUNT(*), COUNT, SUM, MIN, MAX and first/last_value per row recomputed by scanning
// each row's frame as the SQL standard defines it.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>

#include "exec/cpu/window/window_evaluator.h"

namespace raydb::exec::cpu {
namespace {

using plan::FrameBound;
using Kind = plan::FrameBound::Kind;

struct Data {
  size_t n = 0;
  Vector part, ord, val;
};

Data random_data(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Data d;
  d.n = n;
  d.part = Vector(Type::integer(), n);
  d.ord = Vector(Type::integer(), n);
  d.val = Vector(Type::bigint(), n);
  for (size_t i = 0; i < n; i++) {
    d.part.ints[i] = int64_t(rng() % 4);
    d.ord.ints[i] = int64_t(rng() % 12);  // many ties
    d.val.ints[i] = int64_t(rng() % 2001) - 1000;
    if (rng() % 5 == 0) d.val.set_null(i);
  }
  return d;
}

// Frame [b, e) of position i (window order) in partition [ps, pe), by definition.
void brute_frame(const plan::WindowExpr& w, const std::vector<uint32_t>& order, const Vector& ord, size_t i,
                 size_t ps, size_t pe, size_t& b, size_t& e) {
  auto peer = [&](size_t j) { return ord.ints[order[j]] == ord.ints[order[i]]; };
  auto edge = [&](const FrameBound& f, bool end) -> int64_t {
    const int64_t ii = int64_t(i);
    switch (f.kind) {
      case Kind::kUnboundedPreceding: return int64_t(ps);
      case Kind::kUnboundedFollowing: return int64_t(pe);
      case Kind::kPreceding: return end ? ii - f.offset + 1 : ii - f.offset;
      case Kind::kFollowing: return end ? ii + f.offset + 1 : ii + f.offset;
      case Kind::kCurrentRow: {
        if (w.rows) return end ? ii + 1 : ii;
        size_t j = i;
        if (end) {
          while (j < pe && peer(j)) j++;
          return int64_t(j);
        }
        while (j > ps && peer(j - 1)) j--;
        return int64_t(j);
      }
    }
    return 0;
  };
  const int64_t lo = std::clamp<int64_t>(edge(w.start, false), int64_t(ps), int64_t(pe));
  const int64_t hi = std::clamp<int64_t>(edge(w.end, true), int64_t(ps), int64_t(pe));
  b = size_t(lo);
  e = size_t(std::max(lo, hi));
}

void check(const plan::WindowExpr& shape, const Data& d) {
  StringInterner interner;
  // Window order: partition, order key, input position (the operator's stable sort).
  std::vector<uint32_t> order(d.n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (d.part.ints[a] != d.part.ints[b]) return d.part.ints[a] < d.part.ints[b];
    return d.ord.ints[a] < d.ord.ints[b];
  });
  const plan::AggFunc aggs[] = {plan::AggFunc::kCountStar, plan::AggFunc::kCount, plan::AggFunc::kSum,
                                plan::AggFunc::kMin, plan::AggFunc::kMax};
  const plan::ExprPtr arg = plan::Expr::column(0, 0, Type::bigint(), "v");
  for (int f = 0; f < 7; f++) {
    plan::WindowExpr w = shape;
    if (f < 5) {
      w.func = plan::WindowFunc::kAggregate;
      w.agg = aggs[f];
      w.type = f < 2 ? Type::bigint() : f == 2 ? Type::hugeint() : Type::bigint();
    } else {
      w.func = f == 5 ? plan::WindowFunc::kFirstValue : plan::WindowFunc::kLastValue;
      w.type = Type::bigint();
    }
    if (!(f == 0)) w.args = {arg};
    w.name = "w";
    w.order.resize(1);
    std::vector<Vector> args;
    if (f != 0) args.push_back(d.val);
    Vector r = WindowEvaluator(w, std::move(args), {d.part}, {d.ord}, d.n, 3, &interner).run();
    ASSERT_EQ(r.size, d.n);
    size_t ps = 0;
    for (size_t i = 0; i < d.n; i++) {
      if (i > 0 && d.part.ints[order[i]] != d.part.ints[order[i - 1]]) ps = i;
      size_t pe = i;
      while (pe < d.n && d.part.ints[order[pe]] == d.part.ints[order[i]]) pe++;
      size_t b, e;
      brute_frame(w, order, d.ord, i, ps, pe, b, e);
      int64_t count = 0, nonnull = 0;
      __int128 sum = 0;
      std::optional<int64_t> mn, mx;
      for (size_t j = b; j < e; j++) {
        count++;
        const uint32_t row = order[j];
        if (d.val.is_null(row)) continue;
        nonnull++;
        sum += d.val.ints[row];
        mn = mn ? std::min(*mn, d.val.ints[row]) : d.val.ints[row];
        mx = mx ? std::max(*mx, d.val.ints[row]) : d.val.ints[row];
      }
      const uint32_t row = order[i];
      const std::string at = "function " + std::to_string(f) + " row " + std::to_string(row) + " frame [" +
                             std::to_string(b) + ", " + std::to_string(e) + ")";
      switch (f) {
        case 0: EXPECT_EQ(r.ints[row], count) << at; break;
        case 1: EXPECT_EQ(r.ints[row], nonnull) << at; break;
        case 2:
          EXPECT_EQ(r.is_null(row), nonnull == 0) << at;
          if (nonnull) EXPECT_TRUE(r.int_at(row) == sum) << at;
          break;
        case 3:
        case 4: {
          const std::optional<int64_t>& want = f == 3 ? mn : mx;
          EXPECT_EQ(r.is_null(row), !want.has_value()) << at;
          if (want) EXPECT_EQ(r.ints[row], *want) << at;
          break;
        }
        default: {
          const bool none = b >= e;
          const uint32_t src = none ? 0 : order[f == 5 ? b : e - 1];
          const bool null = none || d.val.is_null(src);
          EXPECT_EQ(r.is_null(row), null) << at;
          if (!null) EXPECT_EQ(r.ints[row], d.val.ints[src]) << at;
        }
      }
    }
  }
}

TEST(WindowEvaluator, RowsFramesMatchBruteForce) {
  const Data d = random_data(2000, 7);
  const std::pair<Kind, int64_t> starts[] = {{Kind::kUnboundedPreceding, 0}, {Kind::kPreceding, 3},
                                             {Kind::kPreceding, 0},          {Kind::kCurrentRow, 0},
                                             {Kind::kFollowing, 2},          {Kind::kPreceding, 300}};
  const std::pair<Kind, int64_t> ends[] = {{Kind::kUnboundedFollowing, 0}, {Kind::kFollowing, 4},
                                           {Kind::kCurrentRow, 0},         {Kind::kPreceding, 1},
                                           {Kind::kFollowing, 0},          {Kind::kFollowing, 400}};
  for (auto [sk, so] : starts)
    for (auto [ek, eo] : ends) {
      plan::WindowExpr w;
      w.rows = true;
      w.start = {sk, so};
      w.end = {ek, eo};
      SCOPED_TRACE("rows frame " + std::to_string(int(sk)) + "/" + std::to_string(so) + " .. " +
                   std::to_string(int(ek)) + "/" + std::to_string(eo));
      check(w, d);
    }
}

TEST(WindowEvaluator, RangePeerFramesMatchBruteForce) {
  const Data d = random_data(2000, 11);
  const Kind starts[] = {Kind::kUnboundedPreceding, Kind::kCurrentRow};
  const Kind ends[] = {Kind::kCurrentRow, Kind::kUnboundedFollowing};
  for (Kind sk : starts)
    for (Kind ek : ends) {
      plan::WindowExpr w;
      w.rows = false;
      w.start = {sk, 0};
      w.end = {ek, 0};
      SCOPED_TRACE("range frame " + std::to_string(int(sk)) + " .. " + std::to_string(int(ek)));
      check(w, d);
    }
}

}  // namespace
}  // namespace raydb::exec::cpu
