#pragma once
// The device side of device_program.h: one thread runs a compiled program for one
// joined row. Semantics mirror exec/cpu/expression_evaluator.cpp operation by
// operation (exact int128 arithmetic, the same overflow bounds, division truncating
// toward zero, three-valued logic, CASE picking the first TRUE condition after
// every branch was evaluated, as the vectorized evaluator does).
#include <cstdint>

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
__device__ inline bool cast_double_exact(uint64_t bits, uint64_t pm, int pe, u128 hi_mag, u128 lo_mag, i128& out) {
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
  // value = prod * 2^e; std::round: half away from zero.
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
    if (rem >= (u128(1) << (sh - 1))) mag++;
  }
  if (mag > (neg ? lo_mag : hi_mag)) return false;
  out = neg ? i128(u128(0) - mag) : i128(mag);  // 2^127 wraps to INT128_MIN, as __fixxfti
  return true;
}

__device__ __forceinline__ void raise_error(DevError* err, int code, int instr, i128 v, uint64_t row) {
  if (!err->report) {
    atomicMax(&err->first_row_inv, ~(unsigned long long)row);
    atomicExch(&err->code, code);
    return;
  }
  if (atomicCAS(&err->code, 0, code) == 0) {
    err->instr = instr;
    err->value_lo = (long long)(uint64_t(u128(v)));
    err->value_hi = (long long)(uint64_t(u128(v) >> 64));
  }
}

// Runs `p` for row i of the joined rows (rows[t][i] is table t's row id). Returns
// false after raising an error.
__device__ inline bool run_program(const DevProgram& p, const uint32_t* const* rows, uint64_t i, i128& out,
                                   bool& out_null, DevError* err) {
  i128 v[kStackDepth];
  bool nl[kStackDepth];
  int sp = 0;
  for (int pc = 0; pc < p.n; pc++) {
    const ProgInstr& in = p.ins[pc];
    switch (in.op) {
      case kPLoad: {
        const ProgColumn& c = p.cols[in.slot];
        v[sp] = column_value(c, rows[c.table][i]);
        nl[sp] = false;
        sp++;
        break;
      }
      case kPConst:
        v[sp] = in.k;
        nl[sp] = in.flag != 0;
        sp++;
        break;
      case kPLookup: {
        const ProgLookup& t = p.lookups[in.slot];
        if (!nl[sp - 1]) {
          const i128 idx = v[sp - 1] - i128(t.base);
          if (idx < 0 || idx >= i128(t.size) || t.nulls[uint64_t(idx)]) {
            nl[sp - 1] = true;
            v[sp - 1] = 0;
          } else {
            v[sp - 1] = t.values[uint64_t(idx)];
          }
        }
        break;
      }
      case kPArith: {
        sp--;
        const i128 y0 = v[sp];
        const bool yn = nl[sp];
        i128 x = v[sp - 1], y = y0, z = 0;
        if (nl[sp - 1] || yn) {
          nl[sp - 1] = true;
          v[sp - 1] = 0;
          break;
        }
        if (!mul_checked(x, in.fa, x) || !mul_checked(y, in.fb, y)) {
          raise_error(err, kErrOverflow, pc, 0, i);
          return false;
        }
        switch (in.sub) {
          case 0:  // add
            z = i128(u128(x) + u128(y));
            if (((x ^ z) & (y ^ z)) < 0) {
              raise_error(err, kErrOverflow, pc, 0, i);
              return false;
            }
            break;
          case 1:  // sub
            z = i128(u128(x) - u128(y));
            if (((x ^ y) & (x ^ z)) < 0) {
              raise_error(err, kErrOverflow, pc, 0, i);
              return false;
            }
            break;
          case 2:  // mul
            if (!mul_checked(x, y, z)) {
              raise_error(err, kErrOverflow, pc, 0, i);
              return false;
            }
            break;
          case 3: {  // div
            if (y == 0) {
              raise_error(err, kErrDivZero, pc, 0, i);
              return false;
            }
            const i128 mn = i128(u128(1) << 127);
            if (x == mn && y == -1) {
              raise_error(err, kErrOverflow, pc, 0, i);
              return false;
            }
            i128 r;
            divmod(x, y, z, r);
            break;
          }
          default: {  // mod
            if (y == 0) {
              raise_error(err, kErrDivZero, pc, 0, i);
              return false;
            }
            i128 q;
            if (y == -1)
              z = 0;
            else
              divmod(x, y, q, z);
            break;
          }
        }
        if (z > in.hi || z < in.lo) {
          raise_error(err, kErrOverflow, pc, 0, i);
          return false;
        }
        v[sp - 1] = z;
        break;
      }
      case kPNeg: {
        if (!nl[sp - 1]) {
          const i128 x = v[sp - 1];
          const bool bad = in.flag ? x == i128(u128(1) << 127) : (x == i128(INT64_MIN) || (in.sub && x == i128(INT32_MIN)));
          if (bad) {
            raise_error(err, kErrOverflow, pc, 0, i);
            return false;
          }
          v[sp - 1] = -x;
        }
        break;
      }
      case kPCmp: {
        sp--;
        if (nl[sp - 1] || nl[sp]) {
          nl[sp - 1] = true;
          v[sp - 1] = 0;
          break;
        }
        i128 x, y;
        bool r = false;
        if (in.flag && (!mul_checked(v[sp - 1], in.fa, x) || !mul_checked(v[sp], in.fb, y))) {
          // compare_vectors: scaled values leave int128, compare as doubles.
          double dx = i128_to_double(v[sp - 1]), dy = i128_to_double(v[sp]);
          if (in.lo != 1) dx = __ddiv_rn(dx, i128_to_double(in.lo));
          if (in.hi != 1) dy = __ddiv_rn(dy, i128_to_double(in.hi));
          switch (in.sub) {
            case 0: r = dx == dy; break;
            case 1: r = !(dx == dy); break;
            case 2: r = dx < dy; break;
            case 3: r = dx <= dy; break;
            case 4: r = dy < dx; break;
            default: r = dy <= dx; break;
          }
          v[sp - 1] = r ? 1 : 0;
          break;
        }
        if (!in.flag) {
          x = v[sp - 1] * in.fa;  // cannot overflow (expression_compiler.cpp)
          y = v[sp] * in.fb;
        }
        switch (in.sub) {
          case 0: r = x == y; break;
          case 1: r = x != y; break;
          case 2: r = x < y; break;
          case 3: r = x <= y; break;
          case 4: r = x > y; break;
          default: r = x >= y; break;
        }
        v[sp - 1] = r ? 1 : 0;
        break;
      }
      case kPAnd:
      case kPOr: {
        sp--;
        const bool an = nl[sp - 1], bn = nl[sp];
        const bool a = v[sp - 1] != 0, b = v[sp] != 0;
        if (in.op == kPAnd) {
          // FALSE dominates NULL.
          if ((!an && !a) || (!bn && !b)) {
            nl[sp - 1] = false;
            v[sp - 1] = 0;
          } else if (an || bn) {
            nl[sp - 1] = true;
            v[sp - 1] = 0;
          } else {
            v[sp - 1] = 1;
          }
        } else {
          // TRUE dominates NULL.
          if ((!an && a) || (!bn && b)) {
            nl[sp - 1] = false;
            v[sp - 1] = 1;
          } else if (an || bn) {
            nl[sp - 1] = true;
            v[sp - 1] = 0;
          } else {
            v[sp - 1] = 0;
          }
        }
        break;
      }
      case kPNot:
        if (!nl[sp - 1]) v[sp - 1] = v[sp - 1] != 0 ? 0 : 1;
        break;
      case kPIsNull:
        v[sp - 1] = (nl[sp - 1] != (in.flag != 0)) ? 1 : 0;
        nl[sp - 1] = false;
        break;
      case kPCast: {
        if (nl[sp - 1]) break;
        i128 x = v[sp - 1];
        if (in.sub == 1) {
          v[sp - 1] = x != 0 ? 1 : 0;
          break;
        }
        if (in.fb == 1) {
          if (!mul_checked(x, in.fa, x)) {
            raise_error(err, kErrCast, pc, v[sp - 1], i);
            return false;
          }
        } else {
          // Round half away from zero, as the CPU's convert().
          i128 q, r;
          divmod(x, in.fb, q, r);
          if (r * 2 >= in.fb) q++;
          if (r * 2 <= -in.fb) q--;
          x = q;
        }
        if (x > in.hi || x < in.lo) {
          raise_error(err, kErrCast, pc, v[sp - 1], i);
          return false;
        }
        v[sp - 1] = x;
        break;
      }
      case kPSwap: {
        const i128 t = v[sp - 1];
        const bool tn = nl[sp - 1];
        v[sp - 1] = v[sp - 2], nl[sp - 1] = nl[sp - 2];
        v[sp - 2] = t, nl[sp - 2] = tn;
        break;
      }
      case kPCaseWhen: {
        // [decided, result, condition, value]
        if (v[sp - 4] == 0 && !nl[sp - 2] && v[sp - 2] != 0) {
          v[sp - 4] = 1;
          v[sp - 3] = v[sp - 1];
          nl[sp - 3] = nl[sp - 1];
        }
        sp -= 2;
        break;
      }
      case kPCaseEnd: {
        // [decided, result] or [decided, result, else]
        const int base = sp - (in.flag ? 3 : 2);
        if (in.flag && v[base] == 0) {
          v[base] = v[sp - 1];
          nl[base] = nl[sp - 1];
        } else {
          v[base] = v[base + 1];
          nl[base] = nl[base + 1];
        }
        sp = base + 1;
        break;
      }
      case kPToDouble: {
        if (nl[sp - 1]) break;
        double d = in.flag ? i128_to_double(v[sp - 1]) : __ll2double_rn((long long)v[sp - 1]);
        if (in.fb != 1) d = __ddiv_rn(d, in.flag ? i128_to_double(in.fb) : __ll2double_rn((long long)in.fb));
        v[sp - 1] = i128(__double_as_longlong(d));
        break;
      }
      case kPDArith: {
        sp--;
        if (nl[sp - 1] || nl[sp]) {
          nl[sp - 1] = true;
          v[sp - 1] = 0;
          break;
        }
        const double x = __longlong_as_double((long long)v[sp - 1]), y = __longlong_as_double((long long)v[sp]);
        double z = 0;
        switch (in.sub) {
          case 0: z = __dadd_rn(x, y); break;
          case 1: z = __dsub_rn(x, y); break;
          case 2: z = __dmul_rn(x, y); break;
          case 3:
            if (y == 0) {
              raise_error(err, kErrDivZero, pc, 0, i);
              return false;
            }
            z = __ddiv_rn(x, y);
            break;
          default:
            if (y == 0) {
              raise_error(err, kErrDivZero, pc, 0, i);
              return false;
            }
            z = fmod(x, y);  // exact, as std::fmod
            break;
        }
        v[sp - 1] = i128(__double_as_longlong(z));
        break;
      }
      case kPDCmp: {
        sp--;
        if (nl[sp - 1] || nl[sp]) {
          nl[sp - 1] = true;
          v[sp - 1] = 0;
          break;
        }
        const double x = __longlong_as_double((long long)v[sp - 1]), y = __longlong_as_double((long long)v[sp]);
        bool r = false;
        switch (in.sub) {
          case 0: r = x == y; break;
          case 1: r = !(x == y); break;
          case 2: r = x < y; break;
          case 3: r = x <= y; break;
          case 4: r = y < x; break;
          default: r = y <= x; break;
        }
        v[sp - 1] = r ? 1 : 0;
        break;
      }
      case kPDNeg:
        if (!nl[sp - 1]) v[sp - 1] = i128(__double_as_longlong(-__longlong_as_double((long long)v[sp - 1])));
        break;
      case kPCastDouble: {
        if (nl[sp - 1]) break;
        i128 x;
        if (!cast_double_exact(uint64_t(v[sp - 1]), uint64_t(in.k), in.slot, u128(in.fa), u128(in.fb), x)) {
          raise_error(err, kErrCast, pc, v[sp - 1], i);
          return false;
        }
        v[sp - 1] = x;
        break;
      }
      default: break;
    }
  }
  out = v[0];
  out_null = nl[0];
  return true;
}

}  // namespace raydb::exec::cuda::general
