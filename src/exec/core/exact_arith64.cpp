#include "exec/core/exact_arith64.h"

namespace raydb::exec {

namespace {

// One loop per operator and null case, so that the compiler keeps the overflow
// flags in registers and the loop free of branches.
template <plan::ArithOp kOp, bool kNulls>
Arith64 combine(const int64_t* x, const int64_t* y, const uint8_t* nulls, size_t n, int64_t fa, int64_t fb, int64_t lo,
                int64_t hi, int64_t* z) {
  bool bad = false, out = false;
  for (size_t i = 0; i < n; i++) {
    int64_t u = x[i], v = y[i];
    if constexpr (kNulls) {
      const int64_t keep = -int64_t(nulls[i] == 0);  // all ones where the row is not NULL
      u &= keep;
      v &= keep;
    }
    int64_t su, sv;
    bad |= __builtin_mul_overflow(u, fa, &su);
    bad |= __builtin_mul_overflow(v, fb, &sv);
    if constexpr (kOp == plan::ArithOp::kAdd) bad |= __builtin_add_overflow(su, sv, &z[i]);
    if constexpr (kOp == plan::ArithOp::kSub) bad |= __builtin_sub_overflow(su, sv, &z[i]);
    if constexpr (kOp == plan::ArithOp::kMul) bad |= __builtin_mul_overflow(su, sv, &z[i]);
    out |= (z[i] < lo) | (z[i] > hi);  // NULL rows hold 0, inside every bound
  }
  return bad ? Arith64::kWiden : out ? Arith64::kOverflow : Arith64::kDone;
}

template <plan::ArithOp kOp>
Arith64 combine_op(const Vector& a, const Vector& b, int64_t fa, int64_t fb, int64_t lo, int64_t hi, Vector& r) {
  const size_t n = a.size;
  if (r.has_nulls())
    return combine<kOp, true>(a.ints.data(), b.ints.data(), r.nulls.data(), n, fa, fb, lo, hi, r.ints.data());
  return combine<kOp, false>(a.ints.data(), b.ints.data(), nullptr, n, fa, fb, lo, hi, r.ints.data());
}

}  // namespace

Arith64 arith_exact_int64(plan::ArithOp op, const Vector& a, const Vector& b, int64_t fa, int64_t fb, int64_t lo,
                          int64_t hi, Vector& r) {
  switch (op) {
    case plan::ArithOp::kAdd: return combine_op<plan::ArithOp::kAdd>(a, b, fa, fb, lo, hi, r);
    case plan::ArithOp::kSub: return combine_op<plan::ArithOp::kSub>(a, b, fa, fb, lo, hi, r);
    case plan::ArithOp::kMul: return combine_op<plan::ArithOp::kMul>(a, b, fa, fb, lo, hi, r);
    default: return Arith64::kWiden;
  }
}

}  // namespace raydb::exec
