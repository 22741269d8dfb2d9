#pragma once
// The reference the order-statistics tests compare against, written apart from the
// library and as plainly as possible: values (not keys) collected per group, sorted
// with a comparator that states the SQL order directly, ranks from the definitions
// with exact integer arithmetic, and data sets with the adversarial shapes (shared
// by the CPU tests and the CUDA tests).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "exec/core/order_statistics/order_statistics.h"

namespace raydb::test::orderstat_ref {

using namespace raydb::exec::orderstat;

// A column of one type, masks and groups, owning its storage.
struct Data {
  std::string name;
  KeyType type = KeyType::kInt32;
  std::vector<int32_t> i32;
  std::vector<uint32_t> u32;
  std::vector<int64_t> i64;
  std::vector<double> f64;
  std::vector<uint8_t> select, nulls;
  std::vector<uint32_t> groups;
  uint32_t group_count = 1;

  uint64_t size() const {
    switch (type) {
      case KeyType::kInt32: return i32.size();
      case KeyType::kUInt32: return u32.size();
      case KeyType::kInt64: return i64.size();
      case KeyType::kDouble: return f64.size();
      default: return 0;
    }
  }
  ColumnInput input() const {
    ColumnInput in;
    in.type = type;
    in.n = size();
    in.values = type == KeyType::kInt32 ? (const void*)i32.data()
                : type == KeyType::kUInt32 ? (const void*)u32.data()
                : type == KeyType::kInt64 ? (const void*)i64.data()
                                          : (const void*)f64.data();
    in.select = select.empty() ? nullptr : select.data();
    in.nulls = nulls.empty() ? nullptr : nulls.data();
    in.group_ids = groups.empty() ? nullptr : groups.data();
    in.groups = group_count;
    return in;
  }
};

// A value of any type, as the reference sorts it.
struct Val {
  int64_t i = 0;  // integer types
  double f = 0;   // kDouble
};

// SQL order: integers by value; doubles by value with every NaN last and -0.0 just
// before +0.0 (the tie is broken as MIN/MAX break it).
inline bool less(KeyType t, const Val& a, const Val& b) {
  if (t != KeyType::kDouble) return a.i < b.i;
  const bool an = std::isnan(a.f), bn = std::isnan(b.f);
  if (an || bn) return !an && bn;
  if (a.f == 0 && b.f == 0) return std::signbit(a.f) && !std::signbit(b.f);
  return a.f < b.f;
}
inline bool same(KeyType t, const Val& a, const Val& b) {
  if (t != KeyType::kDouble) return a.i == b.i;
  if (std::isnan(a.f)) return std::isnan(b.f);
  return a.f == b.f && std::signbit(a.f) == std::signbit(b.f);
}

inline Val value_at(const Data& d, uint64_t i) {
  switch (d.type) {
    case KeyType::kInt32: return {d.i32[i], 0};
    case KeyType::kUInt32: return {int64_t(d.u32[i]), 0};
    case KeyType::kInt64: return {d.i64[i], 0};
    default: return {0, d.f64[i]};
  }
}
inline Val value_of_key(KeyType t, uint64_t key) {
  if (t == KeyType::kDouble) return {0, double_from_key(key)};
  return {int_from_key(t, key), 0};
}

// The sorted counting values of every group.
inline std::vector<std::vector<Val>> sorted_groups(const Data& d) {
  std::vector<std::vector<Val>> g(d.group_count);
  for (uint64_t i = 0; i < d.size(); i++) {
    if (!d.select.empty() && !d.select[i]) continue;
    if (!d.nulls.empty() && d.nulls[i]) continue;
    g[d.groups.empty() ? 0 : d.groups[i]].push_back(value_at(d, i));
  }
  for (auto& v : g) std::sort(v.begin(), v.end(), [&](const Val& a, const Val& b) { return less(d.type, a, b); });
  return g;
}

// Ranks by the definitions (rank_spec.h), computed differently: ceil(n q) by rounding
// up the exact quotient.
inline bool ref_ranks(const RankSpec& s, uint64_t n, uint32_t g, uint64_t* lo, uint64_t* hi, double* d) {
  if (n == 0) return false;
  *d = 0;
  if (s.kind == RankKind::kKthSmallest || s.kind == RankKind::kKthLargest) {
    const int64_t k = s.k_per_group ? s.k_per_group[g] : s.k;
    if (k < 1 || k > int64_t(n)) return false;
    *lo = *hi = s.kind == RankKind::kKthSmallest ? uint64_t(k - 1) : n - uint64_t(k);
    return true;
  }
  if (s.kind == RankKind::kDisc) {
    const unsigned __int128 num = (unsigned __int128)n * uint64_t(s.q.integral), den = uint64_t(s.q.scaling);
    const uint64_t c = uint64_t((num + den - 1) / den);  // the least c with c * scaling >= n * q
    *lo = *hi = c == 0 ? 0 : c - 1;
    return true;
  }
  const double rn = double(n - 1) * (double(s.q.integral) / double(s.q.scaling));
  *lo = uint64_t(std::floor(rn));
  *hi = std::min<uint64_t>(uint64_t(std::ceil(rn)), n - 1);
  *d = rn - std::floor(rn);
  return true;
}

// ---- data sets ----

inline Data ints32(std::string name, std::vector<int32_t> v) {
  Data d;
  d.name = std::move(name);
  d.type = KeyType::kInt32;
  d.i32 = std::move(v);
  return d;
}
inline Data ints64(std::string name, std::vector<int64_t> v) {
  Data d;
  d.name = std::move(name);
  d.type = KeyType::kInt64;
  d.i64 = std::move(v);
  return d;
}
inline Data doubles(std::string name, std::vector<double> v) {
  Data d;
  d.name = std::move(name);
  d.type = KeyType::kDouble;
  d.f64 = std::move(v);
  return d;
}

// Adds a WHERE mask (about `keep` of the rows), NULLs (about `null` of them) and
// `groups` groups (skewed: group 0 gets half the rows; the last group none when
// `empty_group`).
inline Data decorate(Data d, double keep, double null, uint32_t groups, bool empty_group, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const uint64_t n = d.size();
  if (keep < 1) {
    d.select.resize(n);
    for (auto& s : d.select) s = u(rng) < keep;
  }
  if (null > 0) {
    d.nulls.resize(n);
    for (auto& s : d.nulls) s = u(rng) < null;
  }
  if (groups > 1) {
    d.group_count = groups;
    d.groups.resize(n);
    const uint32_t used = empty_group ? groups - 1 : groups;
    for (auto& g : d.groups) g = u(rng) < 0.5 ? 0 : uint32_t(rng() % used);
  }
  d.name += " keep=" + std::to_string(keep) + " null=" + std::to_string(null) + " groups=" + std::to_string(groups);
  return d;
}

inline std::vector<Data> adversarial_sets() {
  const int32_t i32min = std::numeric_limits<int32_t>::min(), i32max = std::numeric_limits<int32_t>::max();
  const int64_t i64min = std::numeric_limits<int64_t>::min(), i64max = std::numeric_limits<int64_t>::max();
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Data> s;
  s.push_back(ints32("empty", {}));
  s.push_back(ints32("one row", {-7}));
  s.push_back(ints32("all equal", std::vector<int32_t>(5000, 42)));
  std::vector<int32_t> two;
  for (int i = 0; i < 3001; i++) two.push_back(i % 3 ? -5 : 9);
  s.push_back(ints32("two values", two));
  s.push_back(ints32("int32 extremes", {i32max, i32min, 0, -1, 1, i32max, i32min, i32min + 1, i32max - 1}));
  s.push_back(ints64("int64 extremes", {i64max, i64min, 0, -1, 1, i64max, i64min, i64min + 1, i64max - 1,
                                        int64_t(1) << 62, -(int64_t(1) << 62)}));
  Data codes;
  codes.name = "dictionary codes";
  codes.type = KeyType::kUInt32;
  codes.u32 = {0, 4294967295u, 7, 7, 2147483648u, 2147483647u, 1};
  s.push_back(codes);
  s.push_back(doubles("doubles special", {-0.0, 0.0, nan, -nan, inf, -inf, 1.5, -1.5, 5e-324, -5e-324,
                                           std::numeric_limits<double>::max(), -0.0, nan, 0.0}));
  s.push_back(doubles("zeros", {0.0, -0.0, -0.0, 0.0, -0.0}));
  s.push_back(doubles("nan only", {nan, nan, -nan}));
  s.push_back(doubles("inf pair", {-inf, inf}));
  std::mt19937_64 rng(7);
  std::vector<int32_t> neg(20000);
  for (auto& v : neg) v = -int32_t(rng() % 1000000);
  s.push_back(ints32("negative", neg));
  std::vector<int32_t> uni(50000);
  for (auto& v : uni) v = int32_t(uint32_t(rng()));
  s.push_back(ints32("uniform int32", uni));
  std::vector<int64_t> u64(30000);
  for (auto& v : u64) v = int64_t(rng());
  s.push_back(ints64("uniform int64", u64));
  std::vector<int32_t> few(40000);
  for (auto& v : few) v = int32_t(rng() % 5) * 1000 - 2000;
  s.push_back(ints32("five values", few));
  std::vector<double> dd(30000);
  for (auto& v : dd) v = (rng() % 10 == 0) ? nan : std::ldexp(double(int64_t(rng() % 2000001) - 1000000), int(rng() % 40) - 20);
  s.push_back(doubles("doubles with NaN", dd));
  return s;
}

// The specs every test asks for: k = 1 and k = n (via kth_largest 1), q = 0, q = 1,
// the median, a few quantiles, k per group.
inline std::vector<RankSpec> all_specs(const std::vector<int64_t>* k_per_group) {
  std::vector<RankSpec> s = {RankSpec::median(),
                             RankSpec::disc(Quantile::decimal(0, 1)),
                             RankSpec::disc(Quantile::decimal(1, 1)),
                             RankSpec::disc(Quantile::decimal(5, 10)),
                             RankSpec::disc(Quantile::of(0.1 + 0.2)),
                             RankSpec::cont(Quantile::decimal(0, 1)),
                             RankSpec::cont(Quantile::decimal(1, 1)),
                             RankSpec::cont(Quantile::decimal(25, 100)),
                             RankSpec::cont(Quantile::of(0.999)),
                             RankSpec::kth_smallest(1),
                             RankSpec::kth_largest(1),
                             RankSpec::kth_smallest(3),
                             RankSpec::kth_largest(2)};
  if (k_per_group) {
    RankSpec k = RankSpec::kth_smallest(0);
    k.k_per_group = k_per_group->data();
    s.push_back(k);
  }
  return s;
}

// Compares a library result with the reference; returns "" or what differs.
inline std::string check(const Data& d, const std::vector<RankSpec>& specs, const OrderStats& r) {
  const auto groups = sorted_groups(d);
  if (r.groups != d.group_count || r.specs != specs.size()) return "wrong shape";
  for (uint32_t g = 0; g < d.group_count; g++) {
    if (r.counts[g] != groups[g].size()) return "count of group " + std::to_string(g);
    for (uint32_t j = 0; j < specs.size(); j++) {
      const OrderStat& s = r.at(g, j);
      uint64_t lo = 0, hi = 0;
      double w = 0;
      const bool valid = ref_ranks(specs[j], groups[g].size(), g, &lo, &hi, &w);
      const std::string where = d.name + " group " + std::to_string(g) + " spec " + std::to_string(j);
      if (valid == s.is_null) return where + ": NULL differs";
      if (!valid) continue;
      if (!same(d.type, value_of_key(d.type, s.lo_key), groups[g][lo])) return where + ": lo value differs";
      if (!same(d.type, value_of_key(d.type, s.hi_key), groups[g][hi])) return where + ": hi value differs";
      if (s.interpolated != (lo != hi) || (lo != hi && s.d != w)) return where + ": weight differs";
    }
  }
  return "";
}

}  // namespace raydb::test::orderstat_ref
