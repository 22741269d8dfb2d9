#include "exec/cuda/general/value_conversions.h"

#include <cmath>
#include <limits>

#include "exec/core/expression_evaluator.h"

namespace raydb::exec::cuda::general {

namespace {

constexpr __int128 kI128Max = std::numeric_limits<__int128>::max();
constexpr __int128 kI128Min = std::numeric_limits<__int128>::min();

// The largest value of an exact type (a conversion's upper bound).
__int128 type_max(const Type& to) {
  switch (to.id) {
    case TypeId::kInteger: return INT32_MAX;
    case TypeId::kBigint: return INT64_MAX;
    case TypeId::kDecimal: return pow10_i128(to.precision) - 1;
    default: return kI128Max;
  }
}

__int128 type_min(const Type& to, __int128 hi) {
  return to.id == TypeId::kDecimal ? -hi : (to.id == TypeId::kHugeint ? kI128Min : -hi - 1);
}

// Integer magnitude of a long double holding an integer of at most 64 significant
// bits, at most 2^127: exact in unsigned 128 bits.
unsigned __int128 magnitude(long double x) {
  x = std::fabs(x);
  int ex = 0;
  const long double m = std::frexp(x, &ex);  // x = m * 2^ex, m in [0.5, 1)
  const unsigned __int128 sig = (unsigned __int128)(uint64_t)std::ldexp(m, 64);
  return ex >= 64 ? sig << (ex - 64) : sig >> (64 - ex);
}

}  // namespace

void ValueConversions::arith_bounds(const Type& t, __int128& lo, __int128& hi) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kDate: hi = INT32_MAX; break;
    case TypeId::kBigint: hi = INT64_MAX; break;
    case TypeId::kDecimal: hi = t.precision > 18 ? pow10_i128(38) - 1 : __int128(999999999999999999LL); break;
    default: hi = kI128Max; break;
  }
  lo = t.id == TypeId::kDecimal ? -hi : (t.id == TypeId::kHugeint ? kI128Min : -hi - 1);
}

bool ValueConversions::to_double(const plan::Expr& e, const Operand& o) {
  if (o.kind == VectorKind::kDouble || o.type.id == TypeId::kNull) return true;
  if (o.kind != VectorKind::kInt && o.kind != VectorKind::kHuge)
    return b_.reject("a conversion to DOUBLE of a non-numeric value: " + e.to_string());
  ProgInstr in;
  in.op = kPToDouble;
  in.flag = o.kind == VectorKind::kHuge ? 1 : 0;
  in.fb = o.type.id == TypeId::kDecimal ? pow10_i128(o.type.scale) : 1;
  b_.push(e, in, 1, 1);
  return true;
}

bool ValueConversions::cast(const plan::Expr& e, const Operand& from, const Type& to) {
  if (from.type == to) return true;
  if (from.type.id == TypeId::kNull) return true;  // stays NULL
  // The binder converts only constants between strings, dates and numbers, so these
  // reach no executor from SQL.
  if (to.id == TypeId::kVarchar || is_string(from)) return b_.reject("a cast to or from VARCHAR: " + e.to_string());
  if (to.id == TypeId::kDouble) return to_double(e, from);
  if (from.kind == VectorKind::kDouble) return cast_double(e, from, to);
  if (to.id == TypeId::kDate) return b_.reject("a cast to DATE from " + from.type.to_string());
  ProgInstr in;
  in.op = kPCast;
  if (to.id == TypeId::kBoolean) {
    in.sub = 1;
    b_.push(e, in, 1, 1);
    return true;
  }
  if (to.id == TypeId::kNull) return b_.reject("a cast to NULL");
  in.hi = type_max(to);
  in.lo = type_min(to, in.hi);
  const int ts = scale_of(to), fs = scale_of(from.type);
  in.fa = ts >= fs ? pow10_i128(ts - fs) : 1;
  in.fb = ts >= fs ? 1 : pow10_i128(fs - ts);
  b_.push(e, in, 1, 1, from.type);
  return true;
}

bool ValueConversions::cast_double(const plan::Expr& e, const Operand& from, const Type& to) {
  if (to.id == TypeId::kBoolean || to.id == TypeId::kDate || to.id == TypeId::kNull)
    return b_.reject("a cast from DOUBLE to " + to.to_string() + ": " + e.to_string());
  const __int128 hi = type_max(to);
  const __int128 lo = type_min(to, hi);
  int pe = 0;
  const long double pm = std::frexp((long double)pow10_i128(to.id == TypeId::kDecimal ? to.scale : 0), &pe);
  ProgInstr in;
  in.op = kPCastDouble;
  in.k = __int128(uint64_t(std::ldexp(pm, 64)));
  in.slot = pe - 64;
  in.fa = __int128(magnitude((long double)hi));
  in.fb = __int128(magnitude((long double)lo));
  in.flag = to.id == TypeId::kDecimal ? 0 : 1;  // integer targets: half to even
  b_.push(e, in, 1, 1, from.type);
  return true;
}

}  // namespace raydb::exec::cuda::general
