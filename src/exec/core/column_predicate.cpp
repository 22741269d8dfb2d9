#include "exec/core/column_predicate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/core/dictionary_like_cache.h"
#include "exec/core/dictionary_like_scan.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/key_set_window.h"
#include "exec/core/like_pattern.h"

namespace raydb::exec {

using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;

namespace {

using Ranges = std::vector<std::pair<int64_t, int64_t>>;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Ranges normalize(Ranges r) {
  if (!std::is_sorted(r.begin(), r.end())) std::sort(r.begin(), r.end());
  Ranges out;
  for (auto& [lo, hi] : r) {
    if (lo > hi) continue;
    if (!out.empty() && (out.back().second == kMax || lo <= out.back().second + 1))
      out.back().second = std::max(out.back().second, hi);
    else
      out.push_back({lo, hi});
  }
  return out;
}

Ranges intersect(const Ranges& a, const Ranges& b) {
  Ranges out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    int64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (lo <= hi) out.push_back({lo, hi});
    if (a[i].second < b[j].second)
      i++;
    else
      j++;
  }
  return out;
}

Ranges complement(const Ranges& a) {
  Ranges out;
  int64_t next = kMin;
  bool done = false;
  for (auto& [lo, hi] : a) {
    if (lo > next) out.push_back({next, lo - 1});
    if (hi == kMax) {
      done = true;
      break;
    }
    next = hi + 1;
  }
  if (!done) out.push_back({next, kMax});
  return out;
}

CompareOp flip(CompareOp op) {
  switch (op) {
    case CompareOp::kLt: return CompareOp::kGt;
    case CompareOp::kLe: return CompareOp::kGe;
    case CompareOp::kGt: return CompareOp::kLt;
    case CompareOp::kGe: return CompareOp::kLe;
    default: return op;
  }
}

// The stored values v with `v op k` for constant k, in the column's domain.
std::optional<Ranges> ranges_for(const Column& col, CompareOp op, const Value& k) {
  if (k.is_null()) return std::nullopt;  // NULL comparisons: leave to the generic path
  const Type& ct = col.type();
  int64_t lo_incl, hi_incl;  // the constant as the tightest bounds [ceil(k'), floor(k')]
  bool exact = true;         // k' is an integer in the column's domain
  if (ct.id == TypeId::kVarchar) {
    if (k.type().id != TypeId::kVarchar) return std::nullopt;
    const Dictionary& d = *col.dictionary();
    const std::string& s = k.as_string();
    // Codes c with string(c) < s are [0, lower_bound(s)); == s is [lb, ub).
    int64_t lb = d.lower_bound(s), ub = d.upper_bound(s);
    switch (op) {
      case CompareOp::kEq: return Ranges{{lb, ub - 1}};
      case CompareOp::kNe: return Ranges{{kMin, lb - 1}, {ub, kMax}};
      case CompareOp::kLt: return Ranges{{kMin, lb - 1}};
      case CompareOp::kLe: return Ranges{{kMin, ub - 1}};
      case CompareOp::kGt: return Ranges{{ub, kMax}};
      case CompareOp::kGe: return Ranges{{lb, kMax}};
    }
    return std::nullopt;
  }
  if (ct.id == TypeId::kDouble) return std::nullopt;
  if (ct.id == TypeId::kDate || ct.id == TypeId::kTimestamp) {
    if (k.type().id != ct.id) return std::nullopt;
    lo_incl = hi_incl = k.as_int();
  } else {
    // Numeric column (INTEGER, BIGINT, DECIMAL): k' = k * 10^column_scale.
    const int cs = ct.id == TypeId::kDecimal ? ct.scale : 0;
    switch (k.type().id) {
      case TypeId::kInteger:
      case TypeId::kBigint:
      case TypeId::kHugeint:
      case TypeId::kDecimal: {
        const int ks = k.type().id == TypeId::kDecimal ? k.type().scale : 0;
        __int128 x = k.as_hugeint();
        __int128 lo, hi;
        if (ks <= cs) {
          if (__builtin_mul_overflow(x, pow10_i128(cs - ks), &x)) return std::nullopt;
          lo = hi = x;
        } else {
          __int128 f = pow10_i128(ks - cs);
          __int128 q = x / f, r = x % f;  // truncation toward zero
          if (r == 0) {
            lo = hi = q;
          } else {
            exact = false;
            lo = r > 0 ? q + 1 : q;   // ceil
            hi = r > 0 ? q : q - 1;   // floor
          }
        }
        if (lo > kMax || hi < kMin) return std::nullopt;
        lo_incl = int64_t(std::max<__int128>(lo, kMin));
        hi_incl = int64_t(std::min<__int128>(hi, kMax));
        break;
      }
      case TypeId::kDouble: {
        long double kd = (long double)k.as_double() * (long double)pow10_i128(cs);
        if (!std::isfinite(double(kd)) || std::fabs(kd) > 9.0e18L) return std::nullopt;
        long double c = std::ceil(kd), f = std::floor(kd);
        exact = c == f;
        lo_incl = int64_t(c);
        hi_incl = int64_t(f);
        break;
      }
      default: return std::nullopt;
    }
  }
  // Ranges below kMin or above kMax are empty (and must not be formed by overflow).
  auto below = [](int64_t x) { return x == kMin ? Ranges{} : Ranges{{kMin, x - 1}}; };
  auto above = [](int64_t x) { return x == kMax ? Ranges{} : Ranges{{x + 1, kMax}}; };
  switch (op) {
    case CompareOp::kEq: return exact ? Ranges{{lo_incl, hi_incl}} : Ranges{};
    case CompareOp::kNe: {
      if (!exact) return Ranges{{kMin, kMax}};
      Ranges r = below(lo_incl), a = above(lo_incl);
      r.insert(r.end(), a.begin(), a.end());
      return r;
    }
    case CompareOp::kLt: return below(lo_incl);          // v < k  <=> v <= ceil(k)-1
    case CompareOp::kLe: return Ranges{{kMin, hi_incl}};  // v <= k <=> v <= floor(k)
    case CompareOp::kGt: return above(hi_incl);          // v > k  <=> v >= floor(k)+1
    case CompareOp::kGe: return Ranges{{lo_incl, kMax}};  // v >= k <=> v >= ceil(k)
  }
  return std::nullopt;
}

// `set`'s words inside the column's [min, max] as ranges (its runs), or with `negated`
// the values of [min, max] outside them (key_set_window.h), sorted and disjoint as they
// come. Anything outside [min, max] is dropped here instead of by compile()'s final
// clip, which gives the same ranges (every AND, OR and NOT of clipped parts differs from
// the unclipped one only outside [min, max]). At SF 20 an anti join's set holds 1.3 M
// order keys: the complement, normalize and clip of all of int64 were three more passes
// and copies per compile.
Ranges key_set_ranges(const plan::KeySet& set, bool negated, const ColumnStats& s) {
  return KeySetWindow(set, negated, s.min, s.max).ranges();
}

bool is_column(const Expr& e) { return e.kind == ExprKind::kColumnRef; }
bool is_const(const Expr& e) { return e.kind == ExprKind::kConstant; }

}  // namespace

std::optional<Ranges> ColumnPredicate::compile_ranges(const Expr& e, const plan::LogicalQuery& q, int& table,
                                                      int& column) {
  auto bind_column = [&](const Expr& c) -> const Column* {
    if (table >= 0 && (table != c.table_index || column != c.column_index)) return nullptr;
    table = c.table_index;
    column = c.column_index;
    return &q.tables[size_t(table)].table->column(size_t(column));
  };
  // x IN set, or x NOT IN set with `negated`.
  auto in_key_set = [&](const Expr& k, bool negated) -> std::optional<Ranges> {
    // A NULL in the set makes "not found" unknown, which ranges cannot say: generic path.
    if (!is_column(*k.children[0]) || k.key_set->has_null()) return std::nullopt;
    const Column* col = bind_column(*k.children[0]);
    if (!col || !k.key_set->comparable_with(col->type())) return std::nullopt;
    return key_set_ranges(*k.key_set, negated, col->stats());
  };
  switch (e.kind) {
    case ExprKind::kCompare: {
      const Expr *c = e.children[0].get(), *k = e.children[1].get();
      CompareOp op = e.compare_op;
      if (is_const(*c) && is_column(*k)) {
        std::swap(c, k);
        op = flip(op);
      }
      if (!is_column(*c) || !is_const(*k)) return std::nullopt;
      const Column* col = bind_column(*c);
      if (!col) return std::nullopt;
      auto r = ranges_for(*col, op, k->value);
      if (!r) return std::nullopt;
      return normalize(*r);
    }
    case ExprKind::kBetween: {
      if (!is_column(*e.children[0]) || !is_const(*e.children[1]) || !is_const(*e.children[2])) return std::nullopt;
      const Column* col = bind_column(*e.children[0]);
      if (!col) return std::nullopt;
      auto a = ranges_for(*col, CompareOp::kGe, e.children[1]->value);
      auto b = ranges_for(*col, CompareOp::kLe, e.children[2]->value);
      if (!a || !b) return std::nullopt;
      Ranges r = intersect(normalize(*a), normalize(*b));
      return e.negated ? normalize(complement(r)) : r;
    }
    case ExprKind::kInList: {
      if (!is_column(*e.children[0])) return std::nullopt;
      const Column* col = bind_column(*e.children[0]);
      if (!col) return std::nullopt;
      Ranges all;
      for (size_t i = 1; i < e.children.size(); i++) {
        if (!is_const(*e.children[i])) return std::nullopt;
        auto r = ranges_for(*col, CompareOp::kEq, e.children[i]->value);
        if (!r) return std::nullopt;  // includes NULL items: three-valued, generic path
        all.insert(all.end(), r->begin(), r->end());
      }
      Ranges r = normalize(all);
      return e.negated ? normalize(complement(r)) : r;
    }
    case ExprKind::kInKeySet: return in_key_set(e, e.negated);
    case ExprKind::kLike: {
      if (!is_column(*e.children[0])) return std::nullopt;
      const Column* col = bind_column(*e.children[0]);
      if (!col || col->type().id != TypeId::kVarchar) return std::nullopt;
      const Dictionary& d = *col->dictionary();
      const std::string& pattern = e.value.as_string();
      if (auto known = DictionaryLikeCache::find(col->dictionary_ptr(), pattern, e.negated)) return *known;
      const Ranges r = dictionary_like_ranges(d, LikePattern(pattern), e.negated);
      DictionaryLikeCache::store(col->dictionary_ptr(), pattern, e.negated, r);
      return r;
    }
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      std::optional<Ranges> acc;
      for (auto& c : e.children) {
        auto r = compile_ranges(*c, q, table, column);
        if (!r) return std::nullopt;
        if (!acc) {
          acc = *r;
        } else if (e.kind == ExprKind::kAnd) {
          acc = intersect(*acc, *r);
        } else {
          Ranges u = *acc;
          u.insert(u.end(), r->begin(), r->end());
          acc = normalize(u);
        }
      }
      return acc;
    }
    case ExprKind::kNot: {
      const Expr& x = *e.children[0];
      if (x.kind == ExprKind::kInKeySet) return in_key_set(x, !x.negated);  // NOT (x IN set): an anti join's
      auto r = compile_ranges(*e.children[0], q, table, column);
      if (!r) return std::nullopt;
      return normalize(complement(*r));
    }
    default: return std::nullopt;
  }
}

std::optional<ColumnPredicate> ColumnPredicate::compile(const Expr& e, const plan::LogicalQuery& q) {
  int table = -1, column = -1;
  auto r = compile_ranges(e, q, table, column);
  if (!r || table < 0) return std::nullopt;
  ColumnPredicate p;
  p.table_ = table;
  p.column_ = &q.tables[size_t(table)].table->column(size_t(column));
  // Clip to the column's actual [min, max]: fewer, tighter ranges.
  const ColumnStats& s = p.column_->stats();
  if (s.min <= s.max) {
    // Already inside (a key set's ranges are): kept as they are, not copied.
    const bool inside = r->empty() || (r->front().first >= s.min && r->back().second <= s.max);
    p.ranges_ = inside ? std::move(*r) : intersect(*r, Ranges{{s.min, s.max}});
  } else {
    p.ranges_.clear();  // empty column: nothing passes
  }
  p.finalize();
  return p;
}

void ColumnPredicate::finalize() {
  bitmap_.clear();
  cuckoo_.reset();
  if (ranges_.size() <= 2) return;
  // Many ranges (IN lists, LIKE): a bitmap over [first.lo, last.hi] when small.
  int64_t lo = ranges_.front().first, hi = ranges_.back().second;
  // [gpuidx] The span in unsigned arithmetic: hi - lo overflows int64 for lists that
  // reach both far below 0 and up to INT64_MAX.
  if (uint64_t(hi) - uint64_t(lo) > (uint64_t(1) << 24)) {
    // Far apart: more than a few single values (an IN list) become a cuckoo set (two
    // probes per row instead of a bisection).
    if (ranges_.size() > kSmallRanges &&
        std::all_of(ranges_.begin(), ranges_.end(), [](const auto& r) { return r.first == r.second; })) {
      std::vector<uint64_t> keys;
      for (auto& r : ranges_) keys.push_back(uint64_t(r.first));
      if (auto set = build_cuckoo_set(keys)) cuckoo_ = std::make_shared<const CuckooSet>(std::move(*set));
    }
    return;
  }
  bitmap_base_ = lo;
  bitmap_.assign(size_t((hi - lo) / 64 + 1), 0);
  // A word at a time (masked first and last words): an anti join's complement holds
  // long ranges, which a loop per bit crossed value by value.
  for (auto& [a, b] : ranges_) {
    const uint64_t from = uint64_t(a) - uint64_t(lo), to = uint64_t(b) - uint64_t(lo);
    const size_t first = size_t(from >> 6), last = size_t(to >> 6);
    const uint64_t head = ~uint64_t(0) << (from & 63), tail = ~uint64_t(0) >> (63 - (to & 63));
    if (first == last) {
      bitmap_[first] |= head & tail;
      continue;
    }
    bitmap_[first] |= head;
    std::fill(bitmap_.begin() + long(first) + 1, bitmap_.begin() + long(last), ~uint64_t(0));
    bitmap_[last] |= tail;
  }
}

bool ColumnPredicate::test(int64_t v) const {
  if (ranges_.size() == 1) return v >= ranges_[0].first && v <= ranges_[0].second;
  if (cuckoo_) return cuckoo_->contains(uint64_t(v));
  if (!bitmap_.empty()) {
    uint64_t off = uint64_t(v - bitmap_base_);
    if (v < bitmap_base_ || off >= bitmap_.size() * 64) return false;
    return bitmap_[off >> 6] >> (off & 63) & 1;
  }
  if (ranges_.size() <= 8) {
    for (auto& [a, b] : ranges_)
      if (v >= a && v <= b) return true;
    return false;
  }
  // Many ranges over a wide span (an IN list of far-apart keys): bisection for the
  // last range starting at or below v.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), v,
                             [](int64_t x, const std::pair<int64_t, int64_t>& r) { return x < r.first; });
  return it != ranges_.begin() && v <= std::prev(it)->second;
}

double ColumnPredicate::coverage() const {
  const ColumnStats& s = column_->stats();
  if (s.min > s.max) return 0;
  long double total = (long double)s.max - (long double)s.min + 1, covered = 0;
  for (auto& [a, b] : ranges_) covered += (long double)b - (long double)a + 1;
  return double(covered / total);
}

template <typename T>
size_t ColumnPredicate::filter_impl(const T* data, uint32_t* rows, size_t n) const {
  return with_test([&](auto test) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      const uint32_t r = rows[i];
      rows[m] = r;
      m += test(int64_t(data[r]));
    }
    return m;
  });
}

template <typename T>
size_t ColumnPredicate::filter_range_impl(const T* data, uint32_t begin, size_t n, uint32_t* out) const {
  const T* d = data + begin;
  return with_test([&](auto test) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      out[m] = begin + uint32_t(i);
      m += test(int64_t(d[i]));
    }
    return m;
  });
}

template <typename T>
void ColumnPredicate::mark_impl(const T* data, const uint32_t* rows, size_t n, uint8_t* out) const {
  with_test([&](auto test) {
    for (size_t i = 0; i < n; i++) out[i] = test(int64_t(data[rows[i]]));
    return 0;
  });
}

void ColumnPredicate::mark(const uint32_t* rows, size_t n, uint8_t* out) const {
  if (ranges_.empty()) {
    std::fill(out, out + n, uint8_t(0));
  } else if (column_->type().physical_width() == 4) {
    mark_impl(column_->data<int32_t>(), rows, n, out);
  } else {
    mark_impl(column_->data<int64_t>(), rows, n, out);
  }
}

size_t ColumnPredicate::filter(uint32_t* rows, size_t n) const {
  if (ranges_.empty()) return 0;
  if (column_->type().physical_width() == 4) return filter_impl(column_->data<int32_t>(), rows, n);
  return filter_impl(column_->data<int64_t>(), rows, n);
}

size_t ColumnPredicate::filter_range(uint32_t begin, size_t n, uint32_t* out) const {
  if (ranges_.empty()) return 0;
  if (column_->type().physical_width() == 4) return filter_range_impl(column_->data<int32_t>(), begin, n, out);
  return filter_range_impl(column_->data<int64_t>(), begin, n, out);
}

}  // namespace raydb::exec
