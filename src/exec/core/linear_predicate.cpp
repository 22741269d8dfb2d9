#include "exec/core/linear_predicate.h"

#include <algorithm>
#include <limits>
#include <map>

#include "common/expression_depth.h"
#include "exec/core/expression_evaluator.h"

namespace raydb::exec {

using plan::ArithOp;
using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;
using i128 = __int128;

namespace {

constexpr i128 kI64Max = std::numeric_limits<int64_t>::max();
constexpr i128 kLimit = i128(1) << 125;  // bounds beyond this are not evaluated (no 128-bit wrap)

int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

// Columns are INTEGER, BIGINT, DATE or DECIMAL; expressions over them may be HUGEINT
// (BIGINT * BIGINT).
bool integer_domain(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate || t.id == TypeId::kDecimal ||
         t.id == TypeId::kHugeint;
}

// The values a result of type t may take before the CPU evaluator raises an overflow
// (expression_evaluator.cpp, arith_exact), as a magnitude bound.
i128 type_limit(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kDate: return INT32_MAX;
    case TypeId::kBigint: return kI64Max;
    case TypeId::kDecimal: return t.precision <= 18 ? pow10_i128(18) - 1 : pow10_i128(38) - 1;
    case TypeId::kHugeint: return kLimit;  // 128-bit values: the evaluation limit binds first
    default: return 0;
  }
}

i128 mag(i128 v) { return v < 0 ? -v : v; }

// A linear form sum coef[c] * x_c + constant at decimal scale `scale`, with `bound`
// a magnitude bound of its value over the columns' statistics.
struct Form {
  std::map<int, i128> coef;  // column index -> coefficient
  i128 constant = 0;
  int scale = 0;
  i128 bound = 0;
};

struct Builder {
  const plan::LogicalQuery& q;
  int table = -1;

  i128 column_bound(int column) const {
    const ColumnStats& s = q.tables[size_t(table)].table->column(size_t(column)).stats();
    if (s.min > s.max) return 0;  // empty table: never evaluated
    return std::max(mag(s.min), mag(s.max));
  }
  // Multiplies a form by 10^k (scale alignment) within the limit.
  bool rescale(Form& f, int to) const {
    if (to == f.scale) return true;
    const i128 k = pow10_i128(to - f.scale);
    if (f.bound > kLimit / k) return false;
    for (auto& [c, v] : f.coef) v *= k;
    f.constant *= k;
    f.bound *= k;
    f.scale = to;
    return true;
  }
  bool times(Form& f, i128 k) const {
    if (k != 0 && f.bound > kLimit / mag(k)) return false;
    for (auto& [c, v] : f.coef) v *= k;
    f.constant *= k;
    f.bound *= mag(k);
    return true;
  }
  std::optional<Form> build(const Expr& e) {
    ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
    if (!integer_domain(e.type)) return std::nullopt;
    std::optional<Form> f = build_node(e);
    // The subexpression's own type must hold every value it may take (no CPU error).
    if (f && e.kind != ExprKind::kColumnRef && e.kind != ExprKind::kConstant && f->bound > type_limit(e.type))
      return std::nullopt;
    return f;
  }
  std::optional<Form> build_node(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kColumnRef: {
        if (table >= 0 && e.table_index != table) return std::nullopt;
        table = e.table_index;
        Form f;
        f.coef[e.column_index] = 1;
        f.scale = scale_of(e.type);
        f.bound = column_bound(e.column_index);
        return f;
      }
      case ExprKind::kConstant: {
        if (e.value.is_null()) return std::nullopt;
        Form f;
        f.constant = e.value.as_hugeint();
        f.scale = scale_of(e.type);
        f.bound = mag(f.constant);
        return f;
      }
      case ExprKind::kNegate: {
        auto f = build(*e.children[0]);
        if (f && !times(*f, -1)) return std::nullopt;
        return f;
      }
      case ExprKind::kArith: return build_arith(e);
      default: return std::nullopt;
    }
  }
  std::optional<Form> build_arith(const Expr& e) {
    auto a = build(*e.children[0]);
    auto b = a ? build(*e.children[1]) : std::nullopt;
    if (!b) return std::nullopt;
    switch (e.arith_op) {
      case ArithOp::kAdd:
      case ArithOp::kSub: {
        const int s = scale_of(e.type);
        if (s < a->scale || s < b->scale || !rescale(*a, s) || !rescale(*b, s)) return std::nullopt;
        if (e.arith_op == ArithOp::kSub && !times(*b, -1)) return std::nullopt;
        for (auto& [c, v] : b->coef) a->coef[c] += v;
        a->constant += b->constant;
        a->bound += b->bound;
        return a;
      }
      case ArithOp::kMul: {
        // Linear only when one side is a constant; scales add up as the binder types it.
        if (!a->coef.empty() && !b->coef.empty()) return std::nullopt;
        if (scale_of(e.type) != a->scale + b->scale) return std::nullopt;
        Form& var = a->coef.empty() ? *b : *a;
        const Form& k = a->coef.empty() ? *a : *b;
        if (!times(var, k.constant)) return std::nullopt;
        var.scale = scale_of(e.type);
        return var;
      }
      default: return std::nullopt;  // division and modulo are not linear
    }
  }
};

template <typename T>
int64_t stored(const Column& c, uint32_t row) {
  return int64_t(c.data<T>()[row]);
}

template <typename V>
bool compare(CompareOp op, V d) {
  switch (op) {
    case CompareOp::kEq: return d == 0;
    case CompareOp::kNe: return d != 0;
    case CompareOp::kLt: return d < 0;
    case CompareOp::kLe: return d <= 0;
    case CompareOp::kGt: return d > 0;
    case CompareOp::kGe: return d >= 0;
  }
  return false;
}

}  // namespace

std::optional<LinearPredicate> LinearPredicate::compile(const Expr& e, const plan::LogicalQuery& q) {
  if (e.kind != ExprKind::kCompare) return std::nullopt;
  const Type &lt = e.children[0]->type, &rt = e.children[1]->type;
  if (!integer_domain(lt) || !integer_domain(rt)) return std::nullopt;
  if ((lt.id == TypeId::kDate) != (rt.id == TypeId::kDate)) return std::nullopt;
  Builder b{q};
  auto l = b.build(*e.children[0]);
  auto r = l ? b.build(*e.children[1]) : std::nullopt;
  if (!r || b.table < 0) return std::nullopt;
  // l op r  <=>  l - r op 0, both sides at the larger scale (exact, as the CPU compares).
  const int s = std::max(l->scale, r->scale);
  if (!b.rescale(*l, s) || !b.rescale(*r, s) || !b.times(*r, -1)) return std::nullopt;
  LinearPredicate p;
  p.table_ = b.table;
  p.op_ = e.compare_op;
  p.constant_ = l->constant + r->constant;
  i128 bound = mag(p.constant_);
  for (auto* f : {&*l, &*r})
    for (auto& [c, v] : f->coef) {
      auto it = std::find_if(p.terms_.begin(), p.terms_.end(), [&](const Term& t) { return t.column_index == c; });
      if (it == p.terms_.end()) {
        Term t;
        t.column_index = c;
        t.column = &q.tables[size_t(b.table)].table->column(size_t(c));
        p.terms_.push_back(t);
        it = p.terms_.end() - 1;
      }
      i128 sum = i128(it->coef) + v;
      if (mag(sum) > kI64Max) return std::nullopt;  // a coefficient beyond 64 bits
      it->coef = int64_t(sum);
    }
  p.terms_.erase(std::remove_if(p.terms_.begin(), p.terms_.end(), [](const Term& t) { return t.coef == 0; }),
                 p.terms_.end());
  if (p.terms_.empty()) return std::nullopt;  // a constant comparison: folded elsewhere
  for (auto& t : p.terms_) bound += mag(i128(t.coef)) * b.column_bound(t.column_index);
  if (bound > kLimit) return std::nullopt;
  p.wide_ = bound > kI64Max;
  return p;
}

bool LinearPredicate::test(const int64_t* x) const {
  if (!wide_) {
    int64_t d = int64_t(constant_);
    for (size_t i = 0; i < terms_.size(); i++) d += terms_[i].coef * x[i];
    return compare(op_, d);
  }
  i128 d = constant_;
  for (size_t i = 0; i < terms_.size(); i++) d += i128(terms_[i].coef) * x[i];
  return compare(op_, d);
}

namespace {

// Two narrow terms (a comparison of two columns, l_receiptdate > l_commitdate): one
// loop per operator that the compiler can unroll, instead of gathering the terms into
// rows and calling test per row.
template <typename A, typename B, typename Cmp>
void mark_two_columns(const A* a, const B* b, int64_t k, int64_t ca, int64_t cb, const uint32_t* rows, size_t n,
                      uint8_t* out, Cmp cmp) {
  for (size_t i = 0; i < n; i++) {
    const uint32_t r = rows[i];
    out[i] = cmp(k + ca * int64_t(a[r]) + cb * int64_t(b[r]));
  }
}

template <typename A, typename B>
void mark_two_columns(const Column& x, const Column& y, int64_t k, int64_t ca, int64_t cb, CompareOp op,
                      const uint32_t* rows, size_t n, uint8_t* out) {
  const A* a = x.data<A>();
  const B* b = y.data<B>();
  switch (op) {
    case CompareOp::kEq: return mark_two_columns(a, b, k, ca, cb, rows, n, out, [](int64_t d) { return d == 0; });
    case CompareOp::kNe: return mark_two_columns(a, b, k, ca, cb, rows, n, out, [](int64_t d) { return d != 0; });
    case CompareOp::kLt: return mark_two_columns(a, b, k, ca, cb, rows, n, out, [](int64_t d) { return d < 0; });
    case CompareOp::kLe: return mark_two_columns(a, b, k, ca, cb, rows, n, out, [](int64_t d) { return d <= 0; });
    case CompareOp::kGt: return mark_two_columns(a, b, k, ca, cb, rows, n, out, [](int64_t d) { return d > 0; });
    case CompareOp::kGe: return mark_two_columns(a, b, k, ca, cb, rows, n, out, [](int64_t d) { return d >= 0; });
  }
}

}  // namespace

void LinearPredicate::mark(const uint32_t* rows, size_t n, uint8_t* out) const {
  if (!wide_ && terms_.size() == 2) {
    const Column& x = *terms_[0].column;
    const Column& y = *terms_[1].column;
    const int64_t k = int64_t(constant_), ca = terms_[0].coef, cb = terms_[1].coef;
    const bool x4 = x.type().physical_width() == 4, y4 = y.type().physical_width() == 4;
    if (x4 && y4) return mark_two_columns<int32_t, int32_t>(x, y, k, ca, cb, op_, rows, n, out);
    if (x4) return mark_two_columns<int32_t, int64_t>(x, y, k, ca, cb, op_, rows, n, out);
    if (y4) return mark_two_columns<int64_t, int32_t>(x, y, k, ca, cb, op_, rows, n, out);
    return mark_two_columns<int64_t, int64_t>(x, y, k, ca, cb, op_, rows, n, out);
  }
  constexpr size_t kChunk = 256;
  const size_t nt = terms_.size();
  thread_local std::vector<int64_t> x;  // kChunk rows x nt terms, row-major
  x.resize(kChunk * nt);
  for (size_t base = 0; base < n; base += kChunk) {
    const size_t m = std::min(kChunk, n - base);
    // Term by term over the chunk (each column read in one sweep), then the test.
    for (size_t t = 0; t < nt; t++) {
      const Column& c = *terms_[t].column;
      if (c.type().physical_width() == 4)
        for (size_t i = 0; i < m; i++) x[i * nt + t] = stored<int32_t>(c, rows[base + i]);
      else
        for (size_t i = 0; i < m; i++) x[i * nt + t] = stored<int64_t>(c, rows[base + i]);
    }
    for (size_t i = 0; i < m; i++) out[base + i] = test(&x[i * nt]);
  }
}

}  // namespace raydb::exec
