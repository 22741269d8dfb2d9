#pragma once
// ExactDoubleSum: the exact sum of a multiset of doubles, rounded ONCE to the nearest
// double (ties to even) at the end. The answer does not depend on the order of the
// additions, so SUM/AVG over DOUBLE agree across thread counts, morsel orders and the
// CPU and CUDA backends (both use this header; RAYDB_HOST_DEVICE compiles it for both).
//
// Why it is exact: every finite double is m * 2^(s - 1074) with integers 0 < m < 2^53
// and 0 <= s <= 2045 (subnormals: s = 0). So every double is an integer number of
// units 2^-1074 below 2^2098, and any sum of them is such an integer too: fixed point
// with that unit loses nothing, from the smallest subnormal to DBL_MAX. The integer is
// kept in carry-save form: kLimbs signed 64-bit limbs, limb j weighing 2^(32 j). Adding
// m * 2^s adds three 32-bit pieces to limbs k..k+2 (k = s / 32 <= 63): no carries,
// so adds are cheap and a negative term is a subtraction of the same pieces. A limb
// grows by < 2^32 per add, so 2^30 adds between normalizations keep |limb| < 2^62;
// normalize() pushes carries up (limbs 0..65 back to [0, 2^32)) and the top limb
// (weight 2^2112, never added to directly) holds the rest: 2^64 terms sum below 2^2162,
// so it stays below 2^50. round() then reads the exact value's sign, top 53 bits, the
// round bit and a sticky bit, as IEEE rounding to nearest even does; exact values at
// or beyond 2^1024 - 2^970 round to +-inf, as IEEE addition of the exact value would.
// Subnormal results need no rounding: the unit IS the subnormal quantum.
//
// Infinities and NaN are recorded aside and decide the result as IEEE addition does:
// any NaN, or +inf together with -inf, gives NaN (one canonical quiet NaN); otherwise
// an infinity wins over every finite sum. An exact zero is -0.0 only when every term
// was -0.0 (IEEE: -0 + -0 = -0, while x + (-x) and +0 + -0 give +0).
#include <cstdint>
#include <cstring>

#include "rt/mapping/host_device.h"

namespace raydb::exec {

constexpr uint64_t kCanonicalNaNBits = 0x7FF8000000000000ull;
constexpr uint64_t kDoubleSign = 0x8000000000000000ull;

RAYDB_HOST_DEVICE uint64_t double_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
RAYDB_HOST_DEVICE double bits_double(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
RAYDB_HOST_DEVICE bool bits_are_nan(uint64_t b) { return (b & ~kDoubleSign) > 0x7FF0000000000000ull; }

// The one notion of "same DOUBLE value" of GROUP BY keys, join keys and DISTINCT:
// -0.0 is +0.0 and every NaN is the canonical NaN (as SQL systems treat them equal).
RAYDB_HOST_DEVICE uint64_t same_value_bits(uint64_t b) {
  if (bits_are_nan(b)) return kCanonicalNaNBits;
  return b == kDoubleSign ? 0 : b;
}

// MIN/MAX over DOUBLE compare this key: ascending keys are IEEE total order with -0.0
// below +0.0 (so MIN prefers -0.0, MAX +0.0, whatever order the rows arrive in), and
// every NaN above +inf (PostgreSQL's rule: MAX is NaN when any value is; MIN only
// when all are). The key of a NaN decodes to the canonical NaN.
RAYDB_HOST_DEVICE uint64_t double_order_key(uint64_t b) {
  if (bits_are_nan(b)) return ~uint64_t(0);
  return (b & kDoubleSign) ? ~b : (b | kDoubleSign);
}
RAYDB_HOST_DEVICE uint64_t double_from_order_key(uint64_t k) {
  if (k == ~uint64_t(0)) return kCanonicalNaNBits;
  return (k & kDoubleSign) ? (k ^ kDoubleSign) : ~k;
}

struct ExactDoubleSum {
  static constexpr int kLimbs = 67;
  static constexpr uint32_t kNormalizeAfter = uint32_t(1) << 30;
  enum : uint32_t { kPosInf = 1, kNegInf = 2, kNaN = 4, kNotNegZero = 8 };

  int64_t limb[kLimbs];
  uint32_t flags;    // kPosInf | kNegInf | kNaN | kNotNegZero (some term was not -0.0)
  uint32_t pending;  // adds since the last normalization: |limb| < (pending + 1) * 2^32
  int32_t first, last;  // limbs that may be nonzero: [first, last] (first > last: none)

  RAYDB_HOST_DEVICE void init() {
    for (int j = 0; j < kLimbs; j++) limb[j] = 0;
    flags = 0;
    pending = 0;
    first = kLimbs;
    last = -1;
  }
  // init() touching only the limbs that may be nonzero.
  RAYDB_HOST_DEVICE void reset() {
    for (int j = first; j <= last; j++) limb[j] = 0;
    flags = 0;
    pending = 0;
    first = kLimbs;
    last = -1;
  }

  RAYDB_HOST_DEVICE void add(double x) { add_bits(double_bits(x)); }

  RAYDB_HOST_DEVICE void add_bits(uint64_t b) {
    const uint32_t e = uint32_t(b >> 52) & 0x7FF;
    const uint64_t frac = b & 0x000FFFFFFFFFFFFFull;
    const bool neg = (b & kDoubleSign) != 0;
    if (e == 0x7FF) {
      flags |= frac ? uint32_t(kNaN) : (neg ? uint32_t(kNegInf) : uint32_t(kPosInf));
      return;
    }
    if (b != kDoubleSign) flags |= kNotNegZero;
    if (e == 0 && frac == 0) return;
    const uint64_t m = e ? (frac | (uint64_t(1) << 52)) : frac;
    const uint32_t s = e ? e - 1 : 0;  // value = m * 2^s units
    const int k = int(s >> 5);
    const uint32_t r = s & 31;
    // m << r < 2^85 as three 32-bit pieces.
    const uint64_t lo = m << r;                       // bits 0..63 of m << r
    const uint64_t hi = r ? (m >> (64 - r)) : 0;      // bits 64..84
    const int64_t p0 = int64_t(lo & 0xFFFFFFFFull), p1 = int64_t(lo >> 32), p2 = int64_t(hi);
    if (neg) {
      limb[k] -= p0, limb[k + 1] -= p1, limb[k + 2] -= p2;
    } else {
      limb[k] += p0, limb[k + 1] += p1, limb[k + 2] += p2;
    }
    if (k < first) first = k;
    if (k + 2 > last) last = k + 2;
    if (++pending >= kNormalizeAfter) normalize();
  }

  // Carries up: limbs 0..kLimbs-2 in [0, 2^32), the top limb signed.
  RAYDB_HOST_DEVICE void normalize() {
    if (first > last) {
      pending = 0;
      return;
    }
    int64_t carry = 0;
    int j = first;
    for (; j < kLimbs - 1; j++) {
      if (j > last && carry == 0) break;
      const int64_t v = limb[j] + carry;
      carry = v >> 32;  // floor division by 2^32 (arithmetic shift)
      limb[j] = v - carry * (int64_t(1) << 32);
    }
    if (j == kLimbs - 1) {
      limb[j] += carry;
      last = j;
    } else if (j - 1 > last) {
      last = j - 1;
    }
    pending = 0;
  }

  // this += o (exact). o's limbs are below (o.pending + 1) * 2^32 in magnitude.
  RAYDB_HOST_DEVICE void merge(const ExactDoubleSum& o) {
    flags |= o.flags;
    if (o.first > o.last) return;
    if (pending + o.pending + 2 >= kNormalizeAfter) normalize();
    for (int j = o.first; j <= o.last; j++) limb[j] += o.limb[j];
    if (o.first < first) first = o.first;
    if (o.last > last) last = o.last;
    pending += o.pending + 1;
    if (pending >= kNormalizeAfter) normalize();
  }

  // The exact sum rounded to the nearest double, ties to even (bits).
  RAYDB_HOST_DEVICE uint64_t round_bits() const {
    if ((flags & kNaN) || ((flags & kPosInf) && (flags & kNegInf))) return kCanonicalNaNBits;
    if (flags & kPosInf) return 0x7FF0000000000000ull;
    if (flags & kNegInf) return 0xFFF0000000000000ull;
    ExactDoubleSum c = *this;
    c.normalize();
    // After normalize(), the value's sign is the top nonzero limb's: lower limbs are
    // nonnegative digits and only the top limb is signed.
    const bool neg = c.limb[kLimbs - 1] < 0;
    if (neg) {
      for (int j = 0; j < kLimbs; j++) c.limb[j] = -c.limb[j];
      c.first = 0;
      c.last = kLimbs - 1;
      c.normalize();
    }
    // The magnitude as 32-bit words (the top limb < 2^50 gives two).
    uint32_t w[kLimbs + 1];
    for (int j = 0; j < kLimbs - 1; j++) w[j] = uint32_t(c.limb[j]);
    w[kLimbs - 1] = uint32_t(uint64_t(c.limb[kLimbs - 1]));
    w[kLimbs] = uint32_t(uint64_t(c.limb[kLimbs - 1]) >> 32);
    int top = kLimbs;
    while (top >= 0 && w[top] == 0) top--;
    const uint64_t sign = neg ? kDoubleSign : 0;
    if (top < 0) return (flags & kNotNegZero) ? 0 : kDoubleSign;
    int p = top * 32 + 31;  // index of the highest set bit
    while (!((w[top] >> (p & 31)) & 1)) p--;
    if (p < 52) return sign | window(w, 0);  // subnormal: exact (the unit is its quantum)
    const int a = p - 52;
    uint64_t mant = window(w, a) & ((uint64_t(1) << 53) - 1);
    if (a > 0) {
      const bool round = (w[(a - 1) >> 5] >> ((a - 1) & 31)) & 1;
      bool sticky = false;
      const int below = a - 1;  // bits [0, below)
      for (int i = 0; i < (below >> 5) && !sticky; i++) sticky = w[i] != 0;
      if (!sticky && (below & 31)) sticky = (w[below >> 5] & ((uint32_t(1) << (below & 31)) - 1)) != 0;
      if (round && (sticky || (mant & 1))) {
        mant++;
        if (mant >> 53) {
          mant >>= 1;
          p++;
        }
      }
    }
    const int biased = p - 51;  // value = mant * 2^(p - 52 - 1074), exponent p - 1074
    if (biased >= 0x7FF) return sign | 0x7FF0000000000000ull;
    return sign | (uint64_t(biased) << 52) | (mant & 0x000FFFFFFFFFFFFFull);
  }
  RAYDB_HOST_DEVICE double round() const { return bits_double(round_bits()); }

 private:
  // Bits [a, a + 64) of the little-endian word array w[0..kLimbs] (zeros past the end).
  RAYDB_HOST_DEVICE static uint64_t window(const uint32_t* w, int a) {
    const int q = a >> 5, r = a & 31;
    const uint64_t w0 = q <= kLimbs ? w[q] : 0, w1 = q + 1 <= kLimbs ? w[q + 1] : 0,
                   w2 = q + 2 <= kLimbs ? w[q + 2] : 0;
    const uint64_t x = w0 | (w1 << 32);
    return (x >> r) | (r ? (w2 << (64 - r)) : 0);
  }
};

}  // namespace raydb::exec
