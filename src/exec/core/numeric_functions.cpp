// abs, round, floor, ceil. Exact types stay exact: DECIMAL results are scaled
// integers rounded half away from zero (PostgreSQL's numeric rule); DOUBLE rounding
// follows DuckDB (half away from zero, std::round(x * 10^n) / 10^n), since
// PostgreSQL has no round(double, n) and rounds round(double) half to even.
#include <cmath>
#include <limits>

#include "common/error.h"
#include "exec/core/scalar_functions.h"

namespace raydb::exec {

using plan::ScalarFunc;

namespace {

int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

// The largest magnitude a value of exact type t holds.
__int128 type_max(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger: return INT32_MAX;
    case TypeId::kBigint: return INT64_MAX;
    case TypeId::kDecimal: return pow10_i128(t.precision) - 1;
    default: return std::numeric_limits<__int128>::max();
  }
}

// x / f rounded half away from zero (f > 0).
__int128 div_round(__int128 x, __int128 f) {
  __int128 q = x / f, r = x % f;
  if (r * 2 >= f) q++;
  if (r * 2 <= -f) q--;
  return q;
}

// floor (down) or ceiling of x / f (f > 0).
__int128 div_floor_ceil(__int128 x, __int128 f, bool down) {
  __int128 q = x / f, r = x % f;
  if (down && r < 0) q--;
  if (!down && r > 0) q++;
  return q;
}

void store(Vector& r, size_t i, __int128 v) {
  if (r.kind == VectorKind::kHuge)
    r.huge[i] = v;
  else
    r.ints[i] = int64_t(v);
}

[[noreturn]] void out_of_range(const plan::Expr& e) {
  fail(ErrorKind::kExecution, "{} out of range in {}", e.type.to_string(), e.to_string());
}

double round_double(double x, int64_t n) {
  // DuckDB's rule, so results agree with it bit for bit.
  double r;
  if (n < 0) {
    const double m = std::pow(10.0, double(-n));
    r = std::round(x / m) * m;
  } else {
    const double m = std::pow(10.0, double(n));
    r = std::round(x * m) / m;
  }
  return std::isinf(r) || std::isnan(r) ? x : r;
}

}  // namespace

Vector numeric_function(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  const Vector& x = args[0];
  Vector r(e.type, n);
  r.nulls = x.nulls;
  // round's digits: a constant the binder placed as the second argument.
  const int64_t digits = e.func == ScalarFunc::kRound && args.size() > 1 && n > 0 ? args[1].ints[0] : 0;
  if (x.kind == VectorKind::kDouble || e.type.id == TypeId::kDouble) {
    for (size_t i = 0; i < n; i++) {
      if (x.is_null(i)) continue;
      const double d = x.double_at(i);
      switch (e.func) {
        case ScalarFunc::kAbs: r.doubles[i] = std::fabs(d); break;
        case ScalarFunc::kRound: r.doubles[i] = round_double(d, digits); break;
        case ScalarFunc::kFloor: r.doubles[i] = std::floor(d); break;
        default: r.doubles[i] = std::ceil(d); break;
      }
    }
    return r;
  }
  const int xs = scale_of(x.type), rs = scale_of(e.type);
  const __int128 hi = type_max(e.type);
  const __int128 lo = e.type.id == TypeId::kDecimal ? -hi : (e.type.id == TypeId::kHugeint ? std::numeric_limits<__int128>::min() : -hi - 1);
  for (size_t i = 0; i < n; i++) {
    if (x.is_null(i)) continue;
    const __int128 v = x.int_at(i);
    __int128 out = v;
    switch (e.func) {
      case ScalarFunc::kAbs:
        if (v == std::numeric_limits<__int128>::min()) out_of_range(e);
        out = v < 0 ? -v : v;
        break;
      case ScalarFunc::kRound: {
        // Keep max(n, 0) fractional digits of xs; below zero digits round to 10^-n.
        const int64_t keep = std::min<int64_t>(xs, digits);
        if (keep >= xs) break;
        const int64_t drop = xs - keep;  // > 0
        if (drop > 38) {
          out = 0;
          break;
        }
        out = div_round(v, pow10_i128(int(drop)));
        if (keep < 0 && __builtin_mul_overflow(out, pow10_i128(int(-keep)), &out)) out_of_range(e);
        break;
      }
      default: out = xs > rs ? div_floor_ceil(v, pow10_i128(xs - rs), e.func == ScalarFunc::kFloor) : v; break;
    }
    if (out > hi || out < lo) out_of_range(e);
    store(r, i, out);
  }
  return r;
}

}  // namespace raydb::exec
