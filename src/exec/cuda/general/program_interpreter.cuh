#pragma once
// The device side of device_program.h: one thread runs a compiled program for one
// joined row. Semantics mirror exec/cpu/expression_evaluator.cpp operation by
// operation (exact int128 arithmetic, the same overflow bounds, division truncating
// toward zero, three-valued logic, CASE picking the first TRUE condition after
// every branch was evaluated, as the vectorized evaluator does).
#include <cstdint>

#include "exec/cuda/general/bitmap_set.h"
#include "exec/cuda/general/civil_date.h"
#include "exec/cuda/general/device_program.h"

namespace raydb::exec::cuda::general {

using i128 = __int128;
using u128 = unsigned __int128;

__device__ __forceinline__ uint64_t load_stored_value(const DevColumn& c, uint64_t row) {
  switch (c.width) {
    case 1: return static_cast<const unsigned char*>(c.data)[row];
    case 2: return static_cast<const unsigned short*>(c.data)[row];
    case 4: return static_cast<const unsigned int*>(c.data)[row];
    default: return static_cast<const unsigned long long*>(c.data)[row];
  }
}

// Exact value of a column's row (column_cache.h: offset or dictionary form).
__device__ __forceinline__ int64_t column_value(const ProgColumn& c, uint32_t row) {
  if (c.raw) return c.raw[row];
  const uint64_t s = load_stored_value(c.col, row);
  return c.col.decode ? c.col.decode[s] : int64_t(uint64_t(c.col.base) + s);
}

__device__ __forceinline__ bool fits64(i128 x) { return x >= i128(INT64_MIN) && x <= i128(INT64_MAX); }
__device__ __forceinline__ u128 uabs(i128 x) { return x < 0 ? u128(0) - u128(x) : u128(x); }

// z = x * y; false on int128 overflow. No 128-bit division: magnitudes are split into
// 64-bit halves.
__device__ __forceinline__ bool mul_checked(i128 x, i128 y, i128& z) {
  if (x == 0 || y == 0) {
    z = 0;
    return true;
  }
  const bool neg = (x < 0) != (y < 0);
  u128 a = uabs(x), b = uabs(y);
  if (a < b) {
    u128 t = a;
    a = b;
    b = t;
  }
  if ((b >> 64) != 0) return false;  // both >= 2^64
  const uint64_t bl = uint64_t(b);
  const u128 hi = u128(uint64_t(a >> 64)) * bl;  // < 2^128
  if ((hi >> 64) != 0) return false;
  const u128 lo = u128(uint64_t(a)) * bl;
  const u128 p = (hi << 64) + lo;
  if (p < lo) return false;
  const u128 limit = neg ? (u128(1) << 127) : (u128(1) << 127) - 1;
  if (p > limit) return false;
  z = neg ? i128(u128(0) - p) : i128(p);
  return true;
}

// Unsigned 128-bit division by shift and subtract (rare: only operands beyond int64).
__device__ inline void udivmod128(u128 n, u128 d, u128& q, u128& r) {
  q = 0;
  r = 0;
  for (int i = 127; i >= 0; i--) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) {
      r -= d;
      q |= u128(1) << i;
    }
  }
}

// Truncating division and remainder (C++ semantics), d != 0, not (MIN / -1).
__device__ __forceinline__ void divmod(i128 x, i128 y, i128& q, i128& r) {
  if (fits64(x) && fits64(y) && !(int64_t(x) == INT64_MIN && int64_t(y) == -1)) {
    q = int64_t(x) / int64_t(y);
    r = int64_t(x) % int64_t(y);
    return;
  }
  u128 uq, ur;
  udivmod128(uabs(x), uabs(y), uq, ur);
  q = ((x < 0) != (y < 0)) ? i128(u128(0) - uq) : i128(uq);
  r = x < 0 ? i128(u128(0) - ur) : i128(ur);
}

// double(x) rounded to nearest even, as gcc's __floattidf (the CPU's double(int128)).
__device__ inline double i128_to_double(i128 x) {
  if (fits64(x)) return __ll2double_rn((long long)x);
  const bool neg = x < 0;
  u128 m = uabs(x);
  const uint64_t hi = uint64_t(m >> 64);
  const int bits = hi ? 128 - __clzll((long long)hi) : 64 - __clzll((long long)uint64_t(m));  // > 63 here
  const int shift = bits - 53;
  u128 q = m >> shift;
  const u128 rem = m & ((u128(1) << shift) - 1), half = u128(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  // q <= 2^53: exact as a double; the scaling by 2^shift is exact too.
  const double d = ldexp(__ull2double_rn((unsigned long long)q), shift);
  return neg ? -d : d;
}

// The CPU's cast of a double to an exact type (expression_evaluator.cpp convert():
// std::round((long double)v * (long double)10^scale), range check, __int128(d)),
// emulated exactly: the x87 extended format has a 64-bit significand, the product of
// the double's 53-bit significand and P's 64-bit one is exact in 117 bits, and is
// rounded to 64 bits (nearest even) as the x87 multiply does. False: the CPU raises.
__device__ inline bool cast_double_exact(uint64_t bits, uint64_t pm, int pe, u128 hi_mag, u128 lo_mag, bool half_even,
                                         i128& out) {
  const bool neg = bits >> 63;
  const int be = int((bits >> 52) & 0x7FF);
  const uint64_t frac = bits & ((1ull << 52) - 1);
  if (be == 0x7FF) return false;  // NaN, Inf
  const uint64_t m = be ? (frac | (1ull << 52)) : frac;
  if (m == 0) {
    out = 0;
    return true;
  }
  int e = (be ? be : 1) - 1075;
  u128 prod = u128(m) * pm;  // < 2^117
  e += pe;
  const uint64_t ph = uint64_t(prod >> 64);
  const int nbits = ph ? 128 - __clzll((long long)ph) : 64 - __clzll((long long)uint64_t(prod));
  if (nbits > 64) {
    const int shift = nbits - 64;
    u128 q = prod >> shift;
    const u128 rem = prod & ((u128(1) << shift) - 1), half = u128(1) << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    prod = q;  // may be 2^64 after the carry: still exact, one bit more
    e += shift;
  }
  // value = prod * 2^e; std::round: half away from zero; std::nearbyint: half to even.
  u128 mag;
  if (e >= 0) {
    if (e > 64) return false;  // >= 2^128 > every bound
    const int top = prod >> 64 ? 65 : 64 - __clzll((long long)uint64_t(prod));
    if (top + e > 128) return false;
    mag = prod << e;
  } else if (-e > 65) {
    mag = 0;  // below 1/2
  } else {
    const int sh = -e;
    mag = prod >> sh;
    const u128 rem = prod & ((u128(1) << sh) - 1);
    const u128 half = u128(1) << (sh - 1);
    // half_even: integer targets round half to even (PostgreSQL's float8 -> int).
    if (rem > half || (rem == half && (!half_even || (mag & 1)))) mag++;
  }
  if (mag > (neg ? lo_mag : hi_mag)) return false;
  out = neg ? i128(u128(0) - mag) : i128(mag);  // 2^127 wraps to INT128_MIN, as __fixxfti
  return true;
}

__device__ __forceinline__ void raise_error(DevError* err, int code, int instr, i128 v, uint64_t key) {
  if (!err->report) {
    atomicMax(&err->first_row_inv, ~(unsigned long long)key);
    atomicExch(&err->code, code);
    return;
  }
  if (atomicCAS(&err->code, 0, code) == 0) {
    err->instr = instr;
    err->value_lo = (long long)(uint64_t(u128(v)));
    err->value_hi = (long long)(uint64_t(u128(v) >> 64));
  }
}

// The value stack of one running program: int128 values (DOUBLE as their bits) with
// NULL flags. Each instruction below pops its operands and pushes its result; one that
// fails returns its ProgError (kErrNone otherwise) and run_program raises it.
// The stack pointer stays a separate local (passed by reference, so it lives in a
// register once the helpers are inlined).
struct ProgStack {
  i128 v[kStackDepth];
  bool nl[kStackDepth];
};

// NULL result of a binary operator with a NULL operand (after the pop).
__device__ __forceinline__ bool null_propagates(ProgStack& s, int& sp) {
  if (!s.nl[sp - 1] && !s.nl[sp]) return false;
  s.nl[sp - 1] = true;
  s.v[sp - 1] = 0;
  return true;
}

__device__ __forceinline__ void op_lookup(ProgStack& s, int& sp, const ProgLookup& t) {
  if (s.nl[sp - 1]) return;
  const i128 idx = s.v[sp - 1] - i128(t.base);
  if (idx < 0 || idx >= i128(t.size) || t.nulls[uint64_t(idx)]) {
    s.nl[sp - 1] = true;
    s.v[sp - 1] = 0;
  } else {
    s.v[sp - 1] = t.values[uint64_t(idx)];
  }
}

// x (op) y for + - * / % after scaling both to the result's scale; the result must lie
// within [lo, hi], the CPU evaluator's bounds for the result type.
__device__ __forceinline__ int op_arith(ProgStack& s, int& sp, const ProgInstr& in) {
  sp--;
  i128 x = s.v[sp - 1], y = s.v[sp], z = 0;
  if (null_propagates(s, sp)) return kErrNone;
  if (!mul_checked(x, in.fa, x) || !mul_checked(y, in.fb, y)) return kErrOverflow;
  switch (in.sub) {
    case 0:  // add
      z = i128(u128(x) + u128(y));
      if (((x ^ z) & (y ^ z)) < 0) return kErrOverflow;
      break;
    case 1:  // sub
      z = i128(u128(x) - u128(y));
      if (((x ^ y) & (x ^ z)) < 0) return kErrOverflow;
      break;
    case 2:  // mul
      if (!mul_checked(x, y, z)) return kErrOverflow;
      break;
    case 3: {  // div
      if (y == 0) return kErrDivZero;
      const i128 mn = i128(u128(1) << 127);
      if (x == mn && y == -1) return kErrOverflow;
      i128 r;
      divmod(x, y, z, r);
      break;
    }
    default: {  // mod
      if (y == 0) return kErrDivZero;
      i128 q;
      if (y == -1)
        z = 0;
      else
        divmod(x, y, q, z);
      break;
    }
  }
  if (z > in.hi || z < in.lo) return kErrOverflow;
  s.v[sp - 1] = z;
  return kErrNone;
}

__device__ __forceinline__ int op_neg(ProgStack& s, int& sp, const ProgInstr& in) {
  if (s.nl[sp - 1]) return kErrNone;
  const i128 x = s.v[sp - 1];
  const bool bad = in.flag ? x == i128(u128(1) << 127) : (x == i128(INT64_MIN) || (in.sub && x == i128(INT32_MIN)));
  if (bad) return kErrOverflow;
  s.v[sp - 1] = -x;
  return kErrNone;
}

// Comparison result of x and y by in.sub (= != < <= > >=).
template <typename T>
__device__ __forceinline__ bool compare(int sub, T x, T y) {
  switch (sub) {
    case 0: return x == y;
    case 1: return !(x == y);
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return y < x;
    default: return y <= x;
  }
}

__device__ __forceinline__ void op_cmp(ProgStack& s, int& sp, const ProgInstr& in) {
  sp--;
  if (null_propagates(s, sp)) return;
  i128 x, y;
  if (in.flag && (!mul_checked(s.v[sp - 1], in.fa, x) || !mul_checked(s.v[sp], in.fb, y))) {
    // compare_vectors: scaled values leave int128, compare as doubles.
    double dx = i128_to_double(s.v[sp - 1]), dy = i128_to_double(s.v[sp]);
    if (in.lo != 1) dx = __ddiv_rn(dx, i128_to_double(in.lo));
    if (in.hi != 1) dy = __ddiv_rn(dy, i128_to_double(in.hi));
    s.v[sp - 1] = compare(in.sub, dx, dy) ? 1 : 0;
    return;
  }
  if (!in.flag) {
    x = s.v[sp - 1] * in.fa;  // cannot overflow (expression_compiler.cpp)
    y = s.v[sp] * in.fb;
  }
  s.v[sp - 1] = compare(in.sub, x, y) ? 1 : 0;
}

// Three-valued AND (FALSE dominates NULL) and OR (TRUE dominates NULL).
__device__ __forceinline__ void op_logic(ProgStack& s, int& sp, bool is_and) {
  sp--;
  const bool an = s.nl[sp - 1], bn = s.nl[sp];
  const bool a = s.v[sp - 1] != 0, b = s.v[sp] != 0;
  const bool dominant = is_and ? ((!an && !a) || (!bn && !b)) : ((!an && a) || (!bn && b));
  if (dominant) {
    s.nl[sp - 1] = false;
    s.v[sp - 1] = is_and ? 0 : 1;
  } else if (an || bn) {
    s.nl[sp - 1] = true;
    s.v[sp - 1] = 0;
  } else {
    s.v[sp - 1] = is_and ? 1 : 0;
  }
}

// Exact numeric casts: to BOOLEAN, scale up (checked), scale down rounding half away
// from zero as the CPU's convert(); the result within the target type's bounds.
__device__ __forceinline__ int op_cast(ProgStack& s, int& sp, const ProgInstr& in) {
  if (s.nl[sp - 1]) return kErrNone;
  i128 x = s.v[sp - 1];
  if (in.sub == 1) {
    s.v[sp - 1] = x != 0 ? 1 : 0;
    return kErrNone;
  }
  if (in.fb == 1) {
    if (!mul_checked(x, in.fa, x)) return kErrCast;
  } else {
    i128 q, r;
    divmod(x, in.fb, q, r);
    if (r * 2 >= in.fb) q++;
    if (r * 2 <= -in.fb) q--;
    x = q;
  }
  if (x > in.hi || x < in.lo) return kErrCast;
  s.v[sp - 1] = x;
  return kErrNone;
}

__device__ __forceinline__ void op_swap(ProgStack& s, int& sp) {
  const i128 t = s.v[sp - 1];
  const bool tn = s.nl[sp - 1];
  s.v[sp - 1] = s.v[sp - 2], s.nl[sp - 1] = s.nl[sp - 2];
  s.v[sp - 2] = t, s.nl[sp - 2] = tn;
}

// [decided, result, condition, value]: the first TRUE condition decides.
__device__ __forceinline__ void op_case_when(ProgStack& s, int& sp) {
  if (s.v[sp - 4] == 0 && !s.nl[sp - 2] && s.v[sp - 2] != 0) {
    s.v[sp - 4] = 1;
    s.v[sp - 3] = s.v[sp - 1];
    s.nl[sp - 3] = s.nl[sp - 1];
  }
  sp -= 2;
}

// [decided, result] or [decided, result, else] -> the CASE's value.
__device__ __forceinline__ void op_case_end(ProgStack& s, int& sp, const ProgInstr& in) {
  const int base = sp - (in.flag ? 3 : 2);
  if (in.flag && s.v[base] == 0) {
    s.v[base] = s.v[sp - 1];
    s.nl[base] = s.nl[sp - 1];
  } else {
    s.v[base] = s.v[base + 1];
    s.nl[base] = s.nl[base + 1];
  }
  sp = base + 1;
}

__device__ __forceinline__ void op_to_double(ProgStack& s, int& sp, const ProgInstr& in) {
  if (s.nl[sp - 1]) return;
  double d = in.flag ? i128_to_double(s.v[sp - 1]) : __ll2double_rn((long long)s.v[sp - 1]);
  if (in.fb != 1) d = __ddiv_rn(d, in.flag ? i128_to_double(in.fb) : __ll2double_rn((long long)in.fb));
  s.v[sp - 1] = i128(__double_as_longlong(d));
}

// One round-to-nearest IEEE operation at a time, as the CPU's SSE code.
__device__ __forceinline__ int op_double_arith(ProgStack& s, int& sp, const ProgInstr& in) {
  sp--;
  if (null_propagates(s, sp)) return kErrNone;
  const double x = __longlong_as_double((long long)s.v[sp - 1]), y = __longlong_as_double((long long)s.v[sp]);
  double z = 0;
  switch (in.sub) {
    case 0: z = __dadd_rn(x, y); break;
    case 1: z = __dsub_rn(x, y); break;
    case 2: z = __dmul_rn(x, y); break;
    case 3:
      if (y == 0) return kErrDivZero;
      z = __ddiv_rn(x, y);
      break;
    default:
      if (y == 0) return kErrDivZero;
      z = fmod(x, y);  // exact, as std::fmod
      break;
  }
  s.v[sp - 1] = i128(__double_as_longlong(z));
  return kErrNone;
}

__device__ __forceinline__ void op_double_cmp(ProgStack& s, int& sp, const ProgInstr& in) {
  sp--;
  if (null_propagates(s, sp)) return;
  const double x = __longlong_as_double((long long)s.v[sp - 1]), y = __longlong_as_double((long long)s.v[sp]);
  // PostgreSQL's order, as the CPU (compare_vectors): NaN equals NaN, above all else.
  const bool nx = isnan(x), ny = isnan(y);
  s.v[sp - 1] = (nx || ny ? compare(in.sub, nx == ny ? 0 : (nx ? 1 : -1), 0) : compare(in.sub, x, y)) ? 1 : 0;
}

__device__ __forceinline__ int op_cast_double(ProgStack& s, int& sp, const ProgInstr& in) {
  if (s.nl[sp - 1]) return kErrNone;
  i128 x;
  if (!cast_double_exact(uint64_t(s.v[sp - 1]), uint64_t(in.k), in.slot, u128(in.fa), u128(in.fb), in.flag != 0, x)) return kErrCast;
  s.v[sp - 1] = x;
  return kErrNone;
}

__device__ __forceinline__ void op_date_part(ProgStack& s, int& sp, const ProgInstr& in) {
  if (s.nl[sp - 1]) return;
  s.v[sp - 1] = date_part(int32_t(int64_t(s.v[sp - 1])), in.sub);
}

// Whether x is among the sorted values of t (binary search); values outside int64 are
// never in it (the compiler keeps only int64 members and only int64-kind operands).
__device__ __forceinline__ bool sorted_set_contains(const ProgLookup& t, i128 x) {
  uint64_t lo = 0, hi = t.size;  // first index with values[i] >= x
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (i128(t.values[mid]) < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < t.size && i128(t.values[lo]) == x;
}

__device__ __forceinline__ void op_in_set(ProgStack& s, int& sp, const ProgInstr& in, const ProgLookup& t) {
  if (s.nl[sp - 1]) return;
  const bool found = sorted_set_contains(t, s.v[sp - 1]);
  if (!found && in.flag) {
    s.nl[sp - 1] = true;
    s.v[sp - 1] = 0;
    return;
  }
  s.v[sp - 1] = (found != (in.sub != 0)) ? 1 : 0;
}

__device__ __forceinline__ void op_in_bitmap(ProgStack& s, int& sp, const ProgInstr& in, const ProgLookup& t) {
  if (s.nl[sp - 1]) return;
  const bool found = bitmap_set_contains(t.values, t.size, t.base, s.v[sp - 1]);
  if (!found && in.flag) {
    s.nl[sp - 1] = true;
    s.v[sp - 1] = 0;
    return;
  }
  s.v[sp - 1] = (found != (in.sub != 0)) ? 1 : 0;
}

// Row sources of run_program: table t's row id of the row being run.
// JoinedRow: row i of joined rows (rows[t][i]); ScannedRow: one table's row, the
// same id for every column (a table scan's filters read only their table).
struct JoinedRow {
  const uint32_t* const* rows;
  uint64_t i;
  __device__ __forceinline__ uint32_t operator()(int t) const { return rows[t][i]; }
};
struct ScannedRow {
  uint32_t row;
  __device__ __forceinline__ uint32_t operator()(int) const { return row; }
};

// Runs `p` for the row that row_of names. Returns false after raising an error (a cast
// error carries the value it could not convert); err_key orders the errors of a
// launch (raise_error keeps the smallest; the row's position, or a scan's conjunct
// and position).
template <typename RowOf>
__device__ inline bool run_program(const DevProgram& p, RowOf row_of, uint64_t err_key, i128& out, bool& out_null,
                                   DevError* err) {
  ProgStack s;
  int sp = 0;
  for (int pc = 0; pc < p.n; pc++) {
    const ProgInstr& in = p.ins[pc];
    int e = kErrNone;
    switch (in.op) {
      case kPLoad: {
        const ProgColumn& c = p.cols[in.slot];
        s.v[sp] = column_value(c, row_of(c.table));
        s.nl[sp] = false;
        sp++;
        break;
      }
      case kPConst:
        s.v[sp] = in.k;
        s.nl[sp] = in.flag != 0;
        sp++;
        break;
      case kPLookup: op_lookup(s, sp, p.lookups[in.slot]); break;
      case kPArith: e = op_arith(s, sp, in); break;
      case kPNeg: e = op_neg(s, sp, in); break;
      case kPCmp: op_cmp(s, sp, in); break;
      case kPAnd: op_logic(s, sp, true); break;
      case kPOr: op_logic(s, sp, false); break;
      case kPNot:
        if (!s.nl[sp - 1]) s.v[sp - 1] = s.v[sp - 1] != 0 ? 0 : 1;
        break;
      case kPIsNull:
        s.v[sp - 1] = (s.nl[sp - 1] != (in.flag != 0)) ? 1 : 0;
        s.nl[sp - 1] = false;
        break;
      case kPCast: e = op_cast(s, sp, in); break;
      case kPSwap: op_swap(s, sp); break;
      case kPCaseWhen: op_case_when(s, sp); break;
      case kPCaseEnd: op_case_end(s, sp, in); break;
      case kPToDouble: op_to_double(s, sp, in); break;
      case kPDArith: e = op_double_arith(s, sp, in); break;
      case kPDCmp: op_double_cmp(s, sp, in); break;
      case kPDNeg:
        if (!s.nl[sp - 1]) s.v[sp - 1] = i128(__double_as_longlong(-__longlong_as_double((long long)s.v[sp - 1])));
        break;
      case kPCastDouble: e = op_cast_double(s, sp, in); break;
      case kPDatePart: op_date_part(s, sp, in); break;
      case kPInSet: op_in_set(s, sp, in, p.lookups[in.slot]); break;
      case kPInBitmap: op_in_bitmap(s, sp, in, p.lookups[in.slot]); break;
      default: break;
    }
    if (e != kErrNone) {
      raise_error(err, e, pc, e == kErrCast ? s.v[sp - 1] : i128(0), err_key);
      return false;
    }
  }
  out = s.v[0];
  out_null = s.nl[0];
  return true;
}

}  // namespace raydb::exec::cuda::general
