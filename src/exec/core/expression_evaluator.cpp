#include "exec/core/expression_evaluator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/expression_depth.h"
#include "common/error.h"
#include "exec/core/exact_arith64.h"
#include "exec/core/in_list_cache.h"
#include "exec/core/like_pattern.h"
#include "exec/core/scalar_functions.h"

namespace raydb::exec {

using plan::ArithOp;
using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;

namespace {

constexpr __int128 kDecimal18Max = __int128(999999999999999999LL);

int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

__int128 max_for_precision(int p) { return pow10_i128(p) - 1; }

// --- leaves -------------------------------------------------------------------------

Vector gather_column(const Expr& e, const EvalContext& ctx) {
  if (!ctx.batch || !ctx.query) fail(ErrorKind::kInternal, "column {} read outside a row context", e.to_string());
  const Column& col = ctx.query->tables[size_t(e.table_index)].table->column(size_t(e.column_index));
  const uint32_t* rows = ctx.batch->rows[size_t(e.table_index)];
  if (!rows) fail(ErrorKind::kInternal, "column {} read before its table is bound", e.to_string());
  const size_t n = ctx.n;
  // A stored BOOLEAN column is read as its INTEGER 0/1 (the binder compares it with 0).
  Vector v(col.type().id == TypeId::kBoolean ? Type::integer() : col.type(), n);
  switch (col.type().id) {
    case TypeId::kBoolean:
    case TypeId::kInteger:
    case TypeId::kDate: {
      const int32_t* d = col.data<int32_t>();
      for (size_t i = 0; i < n; i++) v.ints[i] = d[rows[i]];
      break;
    }
    case TypeId::kVarchar: {
      v.kind = VectorKind::kCode;
      v.strings.clear();
      v.ints.resize(n);
      v.dict = col.dictionary();
      const int32_t* d = col.data<int32_t>();
      for (size_t i = 0; i < n; i++) v.ints[i] = d[rows[i]];
      break;
    }
    case TypeId::kBigint:
    case TypeId::kTimestamp:
    case TypeId::kDecimal: {
      const int64_t* d = col.data<int64_t>();
      for (size_t i = 0; i < n; i++) v.ints[i] = d[rows[i]];
      break;
    }
    case TypeId::kDouble: {
      const double* d = col.data<double>();
      for (size_t i = 0; i < n; i++) v.doubles[i] = d[rows[i]];
      break;
    }
    default: fail(ErrorKind::kInternal, "cannot read column of type {}", col.type().to_string());
  }
  return v;
}

Vector ref_vector(const std::vector<Vector>* src, int index, size_t n, const char* what) {
  if (!src || index < 0 || size_t(index) >= src->size())
    fail(ErrorKind::kInternal, "{} #{} read outside its context", what, index);
  const Vector& v = (*src)[size_t(index)];
  if (v.size != n) fail(ErrorKind::kInternal, "{} #{} has {} rows, expected {}", what, index, v.size, n);
  return v;
}

void merge_nulls(Vector& out, const Vector& a, const Vector& b) {
  if (!a.has_nulls() && !b.has_nulls()) return;
  out.nulls.assign(out.size, 0);
  for (size_t i = 0; i < out.size; i++) out.nulls[i] = uint8_t(a.is_null(i) || b.is_null(i));
}

// --- arithmetic -----------------------------------------------------------------------

[[noreturn]] void overflow(const Expr& e) { fail(ErrorKind::kExecution, "numeric overflow in {}", e.to_string()); }
[[noreturn]] void div_zero(const Expr& e) { fail(ErrorKind::kExecution, "division by zero in {}", e.to_string()); }

Vector arith_double(const Expr& e, const Vector& a, const Vector& b) {
  const size_t n = a.size;
  Vector r(Type::float64(), n);
  merge_nulls(r, a, b);
  for (size_t i = 0; i < n; i++) {
    if (r.is_null(i)) continue;
    double x = a.double_at(i), y = b.double_at(i);
    switch (e.arith_op) {
      case ArithOp::kAdd: r.doubles[i] = x + y; break;
      case ArithOp::kSub: r.doubles[i] = x - y; break;
      case ArithOp::kMul: r.doubles[i] = x * y; break;
      case ArithOp::kDiv:
        if (y == 0) div_zero(e);
        r.doubles[i] = x / y;
        break;
      case ArithOp::kMod:
        if (y == 0) div_zero(e);
        r.doubles[i] = std::fmod(x, y);
        break;
    }
  }
  return r;
}

// Integral and decimal arithmetic, exact. Operands are aligned to the result scale
// for + - %, multiplied raw for * (scales add up, as the binder typed it), and
// checked against the result type's range.
Vector arith_exact(const Expr& e, const Vector& a, const Vector& b) {
  const size_t n = a.size;
  const Type& rt = e.type;
  Vector r(rt, n);
  merge_nulls(r, a, b);
  const int rs = scale_of(rt);
  const int sa = scale_of(a.type), sb = scale_of(b.type);
  const bool add_like = e.arith_op == ArithOp::kAdd || e.arith_op == ArithOp::kSub || e.arith_op == ArithOp::kMod;
  // Result bounds.
  __int128 hi;
  switch (rt.id) {
    case TypeId::kInteger:
    case TypeId::kDate: hi = INT32_MAX; break;
    case TypeId::kBigint: hi = INT64_MAX; break;
    case TypeId::kDecimal: hi = rt.precision > 18 ? max_for_precision(38) : kDecimal18Max; break;
    default: hi = std::numeric_limits<__int128>::max(); break;
  }
  const __int128 lo = rt.id == TypeId::kDecimal ? -hi : (rt.id == TypeId::kHugeint ? std::numeric_limits<__int128>::min() : -hi - 1);
  const bool wide = r.kind == VectorKind::kHuge || a.kind == VectorKind::kHuge || b.kind == VectorKind::kHuge;

  // Fast path: + - * in int64 (scales aligned by factors below 10^18); an
  // intermediate that leaves int64 redoes the batch in int128 below, where the
  // result may still fit.
  if (!wide && (e.arith_op == ArithOp::kAdd || e.arith_op == ArithOp::kSub || e.arith_op == ArithOp::kMul) &&
      (!add_like || (rs >= sa && rs >= sb && rs - sa <= 18 && rs - sb <= 18))) {
    const int64_t fa = add_like ? int64_t(pow10_i128(rs - sa)) : 1, fb = add_like ? int64_t(pow10_i128(rs - sb)) : 1;
    switch (arith_exact_int64(e.arith_op, a, b, fa, fb, int64_t(std::max<__int128>(lo, INT64_MIN)),
                              int64_t(std::min<__int128>(hi, INT64_MAX)), r)) {
      case Arith64::kDone: return r;
      case Arith64::kOverflow: overflow(e);
      case Arith64::kWiden: break;
    }
  }
  // General path in int128.
  const __int128 fa = add_like ? pow10_i128(rs - sa) : 1, fb = add_like ? pow10_i128(rs - sb) : 1;
  for (size_t i = 0; i < n; i++) {
    if (r.is_null(i)) continue;
    __int128 x = a.int_at(i), y = b.int_at(i), z = 0;
    if (__builtin_mul_overflow(x, fa, &x) || __builtin_mul_overflow(y, fb, &y)) overflow(e);
    switch (e.arith_op) {
      case ArithOp::kAdd:
        if (__builtin_add_overflow(x, y, &z)) overflow(e);
        break;
      case ArithOp::kSub:
        if (__builtin_sub_overflow(x, y, &z)) overflow(e);
        break;
      case ArithOp::kMul:
        if (__builtin_mul_overflow(x, y, &z)) overflow(e);
        break;
      case ArithOp::kDiv:
        if (y == 0) div_zero(e);
        if (x == std::numeric_limits<__int128>::min() && y == -1) overflow(e);
        z = x / y;  // C++ truncates toward zero, as SQLite and PostgreSQL do
        break;
      case ArithOp::kMod:
        if (y == 0) div_zero(e);
        z = (y == -1) ? 0 : x % y;
        break;
    }
    if (z > hi || z < lo) overflow(e);
    if (r.kind == VectorKind::kHuge)
      r.huge[i] = z;
    else
      r.ints[i] = int64_t(z);
  }
  return r;
}

Vector eval_arith(const Expr& e, const EvalContext& ctx) {
  Vector a = evaluate(*e.children[0], ctx);
  Vector b = evaluate(*e.children[1], ctx);
  if (e.type.id == TypeId::kDouble) return arith_double(e, a, b);
  if (a.kind == VectorKind::kDouble || b.kind == VectorKind::kDouble)
    fail(ErrorKind::kInternal, "{}: exact arithmetic on a DOUBLE operand", e.to_string());
  if (a.kind == VectorKind::kCode || a.kind == VectorKind::kString || b.kind == VectorKind::kCode ||
      b.kind == VectorKind::kString)
    fail(ErrorKind::kInternal, "{}: arithmetic on strings", e.to_string());
  return arith_exact(e, a, b);
}

Vector eval_negate(const Expr& e, const EvalContext& ctx) {
  Vector a = evaluate(*e.children[0], ctx);
  Vector r = convert(std::move(a), e.type);
  switch (r.kind) {
    case VectorKind::kInt:
      for (size_t i = 0; i < r.size; i++) {
        if (r.ints[i] == INT64_MIN || (e.type.id == TypeId::kInteger && r.ints[i] == INT32_MIN)) overflow(e);
        r.ints[i] = -r.ints[i];
      }
      break;
    case VectorKind::kHuge:
      for (auto& x : r.huge) {
        if (x == std::numeric_limits<__int128>::min()) overflow(e);
        x = -x;
      }
      break;
    case VectorKind::kDouble:
      for (auto& x : r.doubles) x = -x;
      break;
    default: fail(ErrorKind::kInternal, "negation of a string");
  }
  return r;
}

// --- comparison ----------------------------------------------------------------------

template <typename T>
inline bool cmp(CompareOp op, const T& x, const T& y) {
  switch (op) {
    case CompareOp::kEq: return x == y;
    case CompareOp::kNe: return !(x == y);
    case CompareOp::kLt: return x < y;
    case CompareOp::kLe: return x <= y;
    case CompareOp::kGt: return y < x;
    case CompareOp::kGe: return y <= x;
  }
  return false;
}

// Doubles compare as in PostgreSQL (issue 14): NaN equals NaN and is above every other
// value, so comparisons agree with ORDER BY, GROUP BY, DISTINCT and joins on NaN.
inline bool cmp_double(CompareOp op, double x, double y) {
  const bool nx = std::isnan(x), ny = std::isnan(y);
  if (!nx && !ny) return cmp(op, x, y);
  const int c = nx == ny ? 0 : (nx ? 1 : -1);  // x vs y
  return cmp(op, c, 0);
}

Vector compare_vectors(CompareOp op, const Vector& a, const Vector& b) {
  const size_t n = a.size;
  Vector r(Type::boolean(), n);
  merge_nulls(r, a, b);
  int64_t* z = r.ints.data();
  const bool a_str = a.kind == VectorKind::kCode || a.kind == VectorKind::kString;
  const bool b_str = b.kind == VectorKind::kCode || b.kind == VectorKind::kString;
  if (a_str || b_str) {
    if (!(a_str && b_str)) fail(ErrorKind::kInternal, "comparison of a string with a non-string");
    if (a.kind == VectorKind::kCode && b.kind == VectorKind::kCode && a.dict == b.dict) {
      for (size_t i = 0; i < n; i++) z[i] = cmp(op, a.ints[i], b.ints[i]);
    } else {
      for (size_t i = 0; i < n; i++) z[i] = cmp(op, a.string_at(i), b.string_at(i));
    }
    return r;
  }
  if (a.kind == VectorKind::kDouble || b.kind == VectorKind::kDouble) {
    for (size_t i = 0; i < n; i++) z[i] = cmp_double(op, a.double_at(i), b.double_at(i));
    return r;
  }
  const int sa = scale_of(a.type), sb = scale_of(b.type);
  if (sa == sb && a.kind == VectorKind::kInt && b.kind == VectorKind::kInt) {
    const int64_t* x = a.ints.data();
    const int64_t* y = b.ints.data();
    switch (op) {
      case CompareOp::kEq: for (size_t i = 0; i < n; i++) z[i] = x[i] == y[i]; break;
      case CompareOp::kNe: for (size_t i = 0; i < n; i++) z[i] = x[i] != y[i]; break;
      case CompareOp::kLt: for (size_t i = 0; i < n; i++) z[i] = x[i] < y[i]; break;
      case CompareOp::kLe: for (size_t i = 0; i < n; i++) z[i] = x[i] <= y[i]; break;
      case CompareOp::kGt: for (size_t i = 0; i < n; i++) z[i] = x[i] > y[i]; break;
      case CompareOp::kGe: for (size_t i = 0; i < n; i++) z[i] = x[i] >= y[i]; break;
    }
    return r;
  }
  // Align scales exactly in int128: |value| < 10^38 after scaling up to 20 digits is
  // not guaranteed, so compare through division when the factor would overflow.
  const int s = std::max(sa, sb);
  const __int128 fa = pow10_i128(s - sa), fb = pow10_i128(s - sb);
  for (size_t i = 0; i < n; i++) {
    __int128 x = a.int_at(i), y = b.int_at(i), xs, ys;
    if (!__builtin_mul_overflow(x, fa, &xs) && !__builtin_mul_overflow(y, fb, &ys)) {
      z[i] = cmp(op, xs, ys);
    } else {
      z[i] = cmp(op, a.double_at(i), b.double_at(i));
    }
  }
  return r;
}

// --- boolean logic (three-valued) ----------------------------------------------------

Vector eval_and_or(const Expr& e, const EvalContext& ctx) {
  const bool is_and = e.kind == ExprKind::kAnd;
  Vector r(Type::boolean(), ctx.n);
  std::fill(r.ints.begin(), r.ints.end(), is_and ? 1 : 0);
  std::vector<uint8_t> unknown(ctx.n, 0);
  for (auto& c : e.children) {
    Vector v = evaluate(*c, ctx);
    for (size_t i = 0; i < ctx.n; i++) {
      if (v.is_null(i)) {
        unknown[i] = 1;
      } else if (is_and && v.ints[i] == 0) {
        r.ints[i] = 0;
      } else if (!is_and && v.ints[i] != 0) {
        r.ints[i] = 1;
      }
    }
  }
  for (size_t i = 0; i < ctx.n; i++) {
    // AND: FALSE dominates NULL; OR: TRUE dominates NULL.
    bool decided = is_and ? r.ints[i] == 0 : r.ints[i] == 1;
    if (unknown[i] && !decided) r.set_null(i);
  }
  return r;
}

Vector eval_not(const Expr& e, const EvalContext& ctx) {
  Vector v = evaluate(*e.children[0], ctx);
  for (auto& x : v.ints) x = !x;
  return v;
}

// The items of `x IN (...)` when all are non-NULL VARCHAR constants, sorted; false otherwise.
bool string_constant_items(const Expr& e, std::vector<std::string_view>& items) {
  for (size_t k = 1; k < e.children.size(); k++) {
    const Expr& c = *e.children[k];
    if (c.kind != ExprKind::kConstant || c.value.is_null() || c.type.id != TypeId::kVarchar) return false;
    items.push_back(c.value.as_string());
  }
  if (!std::is_sorted(items.begin(), items.end())) std::sort(items.begin(), items.end());
  return true;
}

// A string of at most 8 bytes as (length, its bytes zero-padded in one word): two such
// strings are equal exactly when both parts are, so an IN list of short strings
// (substr(c_phone, 1, 2) IN ('13', ...)) is searched with integer compares, not memcmp.
bool pack_short(std::string_view s, std::pair<uint64_t, uint64_t>& out) {
  if (s.size() > 8) return false;
  uint64_t w = 0;
  for (size_t i = 0; i < s.size(); i++) w |= uint64_t(static_cast<unsigned char>(s[i])) << (8 * i);
  out = {s.size(), w};
  return true;
}

// The items packed by pack_short and sorted, when every item is at most 8 bytes.
bool pack_short_items(const std::vector<std::string_view>& items, std::vector<std::pair<uint64_t, uint64_t>>& out) {
  out.resize(items.size());
  for (size_t k = 0; k < items.size(); k++)
    if (!pack_short(items[k], out[k])) return false;
  std::sort(out.begin(), out.end());
  return true;
}

// The items' stored words when all are non-NULL constants that compare with x's words
// directly (integer kinds of x's scale), sorted; false otherwise. Lists from IN
// (subquery) come sorted, so this is one pass over them.
bool int_constant_items(const Expr& e, const Vector& x, std::vector<int64_t>& items) {
  if (x.kind != VectorKind::kInt) return false;
  for (size_t k = 1; k < e.children.size(); k++) {
    const Expr& c = *e.children[k];
    if (c.kind != ExprKind::kConstant || c.value.is_null() || kind_of(c.type) != VectorKind::kInt ||
        scale_of(c.type) != scale_of(x.type))
      return false;
    items.push_back(Vector::constant(c.value, c.type, 1).ints[0]);
  }
  if (!std::is_sorted(items.begin(), items.end())) std::sort(items.begin(), items.end());
  return true;
}

Vector eval_in_list(const Expr& e, const EvalContext& ctx) {
  Vector x = evaluate(*e.children[0], ctx);
  Vector r(Type::boolean(), ctx.n);
  if (const InListItems* set = InListCache::find(e, x)) {  // a long list, prepared once
    for (size_t i = 0; i < ctx.n; i++) {
      const bool in = !x.is_null(i) && (set->strings ? std::binary_search(set->texts.begin(), set->texts.end(), x.string_at(i))
                                                     : std::binary_search(set->words.begin(), set->words.end(), x.ints[i]));
      r.ints[i] = !x.is_null(i) && in != e.negated;
    }
    r.nulls = x.nulls;
    return r;
  }
  std::vector<std::string_view> items;
  if ((x.kind == VectorKind::kString || x.kind == VectorKind::kCode) && string_constant_items(e, items)) {
    std::vector<std::pair<uint64_t, uint64_t>> packed;
    if (pack_short_items(items, packed)) {
      for (size_t i = 0; i < ctx.n; i++) {
        std::pair<uint64_t, uint64_t> v;
        const bool in = !x.is_null(i) && pack_short(x.string_at(i), v) &&
                        std::binary_search(packed.begin(), packed.end(), v);
        r.ints[i] = !x.is_null(i) && in != e.negated;
      }
      r.nulls = x.nulls;
      return r;
    }
    // One lookup per row in the sorted constants instead of a comparison vector per item.
    for (size_t i = 0; i < ctx.n; i++)
      r.ints[i] = !x.is_null(i) && std::binary_search(items.begin(), items.end(), x.string_at(i)) != e.negated;
    r.nulls = x.nulls;
    return r;
  }
  std::vector<int64_t> words;
  if (int_constant_items(e, x, words)) {
    for (size_t i = 0; i < ctx.n; i++)
      r.ints[i] = !x.is_null(i) && std::binary_search(words.begin(), words.end(), x.ints[i]) != e.negated;
    r.nulls = x.nulls;
    return r;
  }
  std::vector<uint8_t> unknown(ctx.n, 0);
  for (size_t k = 1; k < e.children.size(); k++) {
    Vector item = evaluate(*e.children[k], ctx);
    Vector eq = compare_vectors(CompareOp::kEq, x, item);
    for (size_t i = 0; i < ctx.n; i++) {
      if (eq.is_null(i))
        unknown[i] = 1;
      else if (eq.ints[i])
        r.ints[i] = 1;
    }
  }
  for (size_t i = 0; i < ctx.n; i++) {
    if (x.is_null(i) || (unknown[i] && !r.ints[i])) r.set_null(i);
    if (e.negated) r.ints[i] = !r.ints[i];
  }
  return r;
}

// x [NOT] IN key set: found is TRUE; not found is NULL when the set holds a NULL, else
// FALSE; NULL x is NULL (the set is never empty: an empty one binds to a constant).
Vector eval_in_key_set(const Expr& e, const EvalContext& ctx) {
  Vector x = evaluate(*e.children[0], ctx);
  if (x.kind != VectorKind::kInt) fail(ErrorKind::kInternal, "a key set tested against a {} value", x.type.to_string());
  const plan::KeySet& set = *e.key_set;
  Vector r(Type::boolean(), ctx.n);
  r.nulls = x.nulls;
  const int64_t* v = x.ints.data();
  int64_t* out = r.ints.data();
  const int64_t flip = e.negated ? 1 : 0;
  for (size_t i = 0; i < ctx.n; i++) out[i] = int64_t(set.contains(v[i])) ^ flip;
  if (set.has_null())
    for (size_t i = 0; i < ctx.n; i++)
      if (out[i] == flip) r.set_null(i);  // not found: unknown
  return r;
}

Vector eval_like(const Expr& e, const EvalContext& ctx) {
  Vector x = evaluate(*e.children[0], ctx);
  const std::string& pattern = e.value.as_string();
  Vector r(Type::boolean(), ctx.n);
  r.nulls = x.nulls;
  const LikePattern like(pattern);
  if (x.kind == VectorKind::kCode && x.dict->size() <= ctx.n) {
    // Match each dictionary entry once.
    std::vector<uint8_t> m(x.dict->size());
    for (uint32_t c = 0; c < x.dict->size(); c++) m[c] = like.matches(x.dict->at(c));
    for (size_t i = 0; i < ctx.n; i++) r.ints[i] = m[size_t(x.ints[i])] != e.negated;
  } else {
    for (size_t i = 0; i < ctx.n; i++) r.ints[i] = !x.is_null(i) && (like.matches(x.string_at(i)) != e.negated);
  }
  return r;
}

Vector eval_case(const Expr& e, const EvalContext& ctx) {
  const size_t pairs = (e.children.size() - (e.has_else ? 1 : 0)) / 2;
  Vector r(e.type, ctx.n);
  r.nulls.assign(ctx.n, 1);
  std::vector<uint8_t> done(ctx.n, 0);
  auto assign = [&](const Vector& v, size_t i) {
    r.nulls[i] = v.is_null(i);
    switch (r.kind) {
      case VectorKind::kInt: r.ints[i] = v.ints[i]; break;
      case VectorKind::kHuge: r.huge[i] = v.huge[i]; break;
      case VectorKind::kDouble: r.doubles[i] = v.doubles[i]; break;
      default: r.strings[i] = v.string_at(i); break;
    }
  };
  for (size_t p = 0; p <= pairs; p++) {
    bool is_else = p == pairs;
    if (is_else && !e.has_else) break;
    std::vector<uint8_t> cond;
    if (!is_else) evaluate_predicate(*e.children[2 * p], ctx, cond);
    Vector v = convert(evaluate(*e.children[is_else ? e.children.size() - 1 : 2 * p + 1], ctx), e.type);
    if (v.kind == VectorKind::kCode) v.decode_strings();
    r.owners.insert(r.owners.end(), v.owners.begin(), v.owners.end());
    for (size_t i = 0; i < ctx.n; i++) {
      if (done[i] || (!is_else && !cond[i])) continue;
      done[i] = 1;
      assign(v, i);
    }
  }
  bool any_null = false;
  for (auto x : r.nulls) any_null |= x != 0;
  if (!any_null) r.nulls.clear();
  return r;
}

// Decimal text -> scaled int64, extra fractional digits rounded half away from zero
// (PostgreSQL: '1.005'::decimal(5,2) = 1.01). False when malformed or too wide.
bool parse_decimal_rounded(std::string_view s, int precision, int scale, int64_t& out) {
  if (parse_decimal(s, precision, scale, out)) return true;
  const size_t dot = s.find('.');
  if (dot == std::string_view::npos || s.size() - dot - 1 <= size_t(scale)) return false;
  const char next = s[dot + 1 + size_t(scale)];
  for (char c : s.substr(dot + 1)) if (c < '0' || c > '9') return false;
  if (!parse_decimal(s.substr(0, dot + 1 + size_t(scale)), precision, scale, out)) return false;
  if (next >= '5') {
    const bool negative = s.front() == '-';
    out += negative ? -1 : 1;
    if (out > pow10_i64(precision) - 1 || out < -(pow10_i64(precision) - 1)) return false;
  }
  return true;
}

}  // namespace

bool like_match(std::string_view s, std::string_view p) {
  // Iterative matcher with one backtrack point (the last %), linear in practice.
  // A backslash makes the next pattern character literal (PostgreSQL's default
  // ESCAPE); _ matches one UTF-8 character.
  auto char_len = [](unsigned char c) -> size_t {
    return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  };
  size_t si = 0, pi = 0, star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '%') {
      star_p = ++pi;
      star_s = si;
      continue;
    }
    if (pi < p.size() && p[pi] == '_') {
      si += std::min(char_len(static_cast<unsigned char>(s[si])), s.size() - si);
      pi++;
      continue;
    }
    size_t lit = (pi + 1 < p.size() && p[pi] == '\\') ? pi + 1 : pi;
    if (lit < p.size() && p[lit] == s[si]) {
      si++;
      pi = lit + 1;
      continue;
    }
    if (star_p == std::string_view::npos) return false;
    star_s += std::min(char_len(static_cast<unsigned char>(s[star_s])), s.size() - star_s);
    si = star_s;
    pi = star_p;
  }
  while (pi < p.size() && p[pi] == '%') pi++;
  return pi == p.size();
}

bool may_be_null(const Expr& e) {
  ExpressionDepthGuard depth_guard;
  switch (e.kind) {
    case ExprKind::kColumnRef: return false;
    case ExprKind::kConstant: return e.value.is_null();
    case ExprKind::kGroupRef:
    case ExprKind::kAggregateRef:
    case ExprKind::kOutputRef:
    case ExprKind::kWindowRef: return true;
    case ExprKind::kCase:
      if (!e.has_else) return true;
      break;
    case ExprKind::kIsNull: return false;
    case ExprKind::kInList:
      if (InListCache::items_known_non_null(e)) return may_be_null(*e.children[0]);
      break;
    case ExprKind::kInKeySet: return e.key_set->has_null() || may_be_null(*e.children[0]);
    case ExprKind::kFunction:
      if (e.func == plan::ScalarFunc::kConcatSkipNull) return false;
      break;
    default: break;
  }
  for (auto& c : e.children)
    if (may_be_null(*c)) return true;
  return false;
}

Vector convert(Vector v, const Type& to) {
  const Type& from = v.type;
  if (from == to && !(to.id == TypeId::kDecimal && kind_of(to) != v.kind)) return v;
  const size_t n = v.size;
  Vector r(to, n);
  r.nulls = v.nulls;
  if (from.id == TypeId::kNull) {
    r.nulls.assign(n, 1);
    return r;
  }
  auto bad_cast = [&](size_t i) {
    fail(ErrorKind::kExecution, "cannot convert {} '{}' to {}", from.to_string(), v.value_at(i).to_string(),
         to.to_string());
  };
  const bool from_str = v.kind == VectorKind::kCode || v.kind == VectorKind::kString;
  if (to.id == TypeId::kVarchar) {
    if (from_str) return v;
    auto& arena = r.new_arena();
    for (size_t i = 0; i < n; i++) {
      if (v.is_null(i)) continue;
      arena.push_back(v.value_at(i).to_string());
      r.strings[i] = arena.back();
    }
    return r;
  }
  if (from_str) {
    // Parse text into the target type.
    for (size_t i = 0; i < n; i++) {
      if (v.is_null(i)) continue;
      // Surrounding whitespace is allowed, as PostgreSQL allows it.
      std::string_view sv = v.string_at(i);
      while (!sv.empty() && std::isspace(static_cast<unsigned char>(sv.front()))) sv.remove_prefix(1);
      while (!sv.empty() && std::isspace(static_cast<unsigned char>(sv.back()))) sv.remove_suffix(1);
      std::string s(sv);
      if (s.empty()) bad_cast(i);
      try {
        switch (to.id) {
          case TypeId::kDate: {
            int32_t d;
            if (!parse_date(s, d)) bad_cast(i);
            r.ints[i] = d;
            break;
          }
          case TypeId::kDouble: {
            size_t pos = 0;
            if (s.find_first_of("xXpP") != std::string::npos) bad_cast(i);  // no hexadecimal floats
            r.doubles[i] = std::stod(s, &pos);
            if (pos != s.size()) bad_cast(i);
            break;
          }
          case TypeId::kDecimal: {
            int64_t x;
            if (!parse_decimal_rounded(s, to.precision > 18 ? 18 : to.precision, to.scale, x)) bad_cast(i);
            if (r.kind == VectorKind::kHuge)
              r.huge[i] = x;
            else
              r.ints[i] = x;
            break;
          }
          case TypeId::kInteger:
          case TypeId::kBigint:
          case TypeId::kHugeint: {
            size_t pos = 0;
            long long x = std::stoll(s, &pos);
            if (pos != s.size()) bad_cast(i);
            if (to.id == TypeId::kInteger && (x < INT32_MIN || x > INT32_MAX)) bad_cast(i);
            if (r.kind == VectorKind::kHuge)
              r.huge[i] = x;
            else
              r.ints[i] = x;
            break;
          }
          case TypeId::kBoolean: {
            bool b = false;
            if (!parse_boolean(s, b)) bad_cast(i);
            r.ints[i] = b;
            break;
          }
          case TypeId::kTimestamp: {
            int64_t t = 0;
            if (!parse_timestamp(s, t)) bad_cast(i);
            r.ints[i] = t;
            break;
          }
          default: bad_cast(i);
        }
      } catch (const std::logic_error&) {
        bad_cast(i);
      }
    }
    return r;
  }
  if (to.id == TypeId::kDouble) {
    for (size_t i = 0; i < n; i++) r.doubles[i] = v.is_null(i) ? 0 : v.double_at(i);
    return r;
  }
  if (to.id == TypeId::kDate && from.id == TypeId::kTimestamp) {
    for (size_t i = 0; i < n; i++) r.ints[i] = timestamp_days(v.ints[i]);
    return r;
  }
  if (to.id == TypeId::kDate) {
    if (from.id != TypeId::kDate) fail(ErrorKind::kExecution, "cannot convert {} to DATE", from.to_string());
    r.ints = v.ints;
    return r;
  }
  if (to.id == TypeId::kTimestamp) {
    if (from.id != TypeId::kDate) fail(ErrorKind::kExecution, "cannot convert {} to TIMESTAMP", from.to_string());
    for (size_t i = 0; i < n; i++)
      if (!v.is_null(i) && __builtin_mul_overflow(v.ints[i], kMicrosPerDay, &r.ints[i])) bad_cast(i);
    return r;
  }
  if (from.id == TypeId::kTimestamp || from.id == TypeId::kDate)
    fail(ErrorKind::kExecution, "cannot convert {} to {}", from.to_string(), to.to_string());
  if (to.id == TypeId::kBoolean) {
    if (v.kind == VectorKind::kDouble) fail(ErrorKind::kExecution, "cannot convert DOUBLE to BOOLEAN");
    for (size_t i = 0; i < n; i++) r.ints[i] = v.int_at(i) != 0;
    return r;
  }
  // Exact numeric targets: INTEGER, BIGINT, HUGEINT, DECIMAL.
  const int ts = scale_of(to);
  __int128 hi;
  switch (to.id) {
    case TypeId::kInteger: hi = INT32_MAX; break;
    case TypeId::kBigint: hi = INT64_MAX; break;
    case TypeId::kDecimal: hi = max_for_precision(to.precision); break;
    default: hi = std::numeric_limits<__int128>::max(); break;
  }
  const __int128 lo = to.id == TypeId::kDecimal ? -hi : (to.id == TypeId::kHugeint ? std::numeric_limits<__int128>::min() : -hi - 1);
  for (size_t i = 0; i < n; i++) {
    if (v.is_null(i)) continue;
    __int128 x;
    if (v.kind == VectorKind::kDouble) {
      // To DECIMAL half away from zero (PostgreSQL goes through numeric); to an integer
      // type half to even, as PostgreSQL's float8 -> int (rint): 2.5 -> 2.
      const long double p = (long double)v.doubles[i] * (long double)pow10_i128(ts);
      long double d = to.id == TypeId::kDecimal ? std::round(p) : std::nearbyint(p);
      if (!std::isfinite(double(d)) || d > (long double)hi || d < (long double)lo) bad_cast(i);
      x = __int128(d);
    } else {
      x = v.int_at(i);
      const int fs = scale_of(from);
      if (ts >= fs) {
        if (__builtin_mul_overflow(x, pow10_i128(ts - fs), &x)) bad_cast(i);
      } else {
        // Round half away from zero, as PostgreSQL does for numeric.
        __int128 f = pow10_i128(fs - ts), q = x / f, rem = x % f;
        if (rem * 2 >= f) q++;
        if (rem * 2 <= -f) q--;
        x = q;
      }
    }
    if (x > hi || x < lo) bad_cast(i);
    if (r.kind == VectorKind::kHuge)
      r.huge[i] = x;
    else
      r.ints[i] = int64_t(x);
  }
  return r;
}

namespace {
Vector evaluate_node(const Expr& e, const EvalContext& ctx);
}  // namespace

Vector evaluate(const Expr& e, const EvalContext& ctx) {
  if (ctx.shared) {
    const int slot = ctx.shared->slot(e);
    if (slot >= 0) {
      if (const Vector* v = ctx.shared->value(slot)) return *v;
      Vector r = evaluate_node(e, ctx);
      ctx.shared->store(slot, r);
      return r;
    }
  }
  return evaluate_node(e, ctx);
}

namespace {
Vector evaluate_node(const Expr& e, const EvalContext& ctx) {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  switch (e.kind) {
    case ExprKind::kColumnRef: return gather_column(e, ctx);
    case ExprKind::kConstant: return Vector::constant(e.value, e.type, ctx.n);
    case ExprKind::kGroupRef: return ref_vector(ctx.group_keys, e.ref_index, ctx.n, "group key");
    case ExprKind::kAggregateRef: return ref_vector(ctx.aggregates, e.ref_index, ctx.n, "aggregate");
    case ExprKind::kOutputRef: return ref_vector(ctx.outputs, e.ref_index, ctx.n, "output column");
    case ExprKind::kWindowRef: return ref_vector(ctx.windows, e.ref_index, ctx.n, "window function");
    case ExprKind::kArith: return eval_arith(e, ctx);
    case ExprKind::kNegate: return eval_negate(e, ctx);
    case ExprKind::kCompare: {
      Vector a = evaluate(*e.children[0], ctx);
      Vector b = evaluate(*e.children[1], ctx);
      return compare_vectors(e.compare_op, a, b);
    }
    case ExprKind::kAnd:
    case ExprKind::kOr: return eval_and_or(e, ctx);
    case ExprKind::kNot: return eval_not(e, ctx);
    case ExprKind::kBetween: {
      Vector x = evaluate(*e.children[0], ctx);
      Vector ge = compare_vectors(CompareOp::kGe, x, evaluate(*e.children[1], ctx));
      Vector le = compare_vectors(CompareOp::kLe, x, evaluate(*e.children[2], ctx));
      Vector r(Type::boolean(), ctx.n);
      for (size_t i = 0; i < ctx.n; i++) {
        // x BETWEEN a AND b == (x >= a AND x <= b), three-valued.
        bool f = (!ge.is_null(i) && !ge.ints[i]) || (!le.is_null(i) && !le.ints[i]);
        bool t = !ge.is_null(i) && ge.ints[i] && !le.is_null(i) && le.ints[i];
        if (!f && !t) r.set_null(i);
        r.ints[i] = e.negated ? f : t;
      }
      return r;
    }
    case ExprKind::kInList: return eval_in_list(e, ctx);
    case ExprKind::kInKeySet: return eval_in_key_set(e, ctx);
    case ExprKind::kLike: return eval_like(e, ctx);
    case ExprKind::kIsNull: {
      Vector x = evaluate(*e.children[0], ctx);
      Vector r(Type::boolean(), ctx.n);
      for (size_t i = 0; i < ctx.n; i++) r.ints[i] = x.is_null(i) != e.negated;
      return r;
    }
    case ExprKind::kCast: return convert(evaluate(*e.children[0], ctx), e.type);
    case ExprKind::kCase: return eval_case(e, ctx);
    case ExprKind::kFunction: {
      std::vector<Vector> args;
      args.reserve(e.children.size());
      for (auto& c : e.children) args.push_back(evaluate(*c, ctx));
      return evaluate_function_per_code(e, args, ctx.n);
    }
  }
  fail(ErrorKind::kInternal, "unknown expression kind");
}
}  // namespace

void evaluate_predicate(const Expr& e, const EvalContext& ctx, std::vector<uint8_t>& keep) {
  ExpressionDepthGuard depth_guard;
  keep.assign(ctx.n, 0);
  if (e.kind == ExprKind::kAnd || e.kind == ExprKind::kOr) {
    // "is TRUE" of AND is the AND of the children's "is TRUE"; likewise for OR.
    const bool is_and = e.kind == ExprKind::kAnd;
    std::fill(keep.begin(), keep.end(), is_and ? 1 : 0);
    std::vector<uint8_t> k;
    for (auto& c : e.children) {
      evaluate_predicate(*c, ctx, k);
      for (size_t i = 0; i < ctx.n; i++) keep[i] = is_and ? (keep[i] & k[i]) : (keep[i] | k[i]);
    }
    return;
  }
  if (e.kind == ExprKind::kNot && !may_be_null(*e.children[0])) {
    evaluate_predicate(*e.children[0], ctx, keep);
    for (auto& k : keep) k = !k;
    return;
  }
  Vector v = evaluate(e, ctx);
  for (size_t i = 0; i < ctx.n; i++) keep[i] = v.ints[i] != 0 && !v.is_null(i);
}

}  // namespace raydb::exec
