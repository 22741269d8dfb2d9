#pragma once
// A brute-force oracle for exact double sums, written independently of
// exec/core/exact_double_sum.h: each double is taken apart with frexp into an integer
// mantissa and a power of two, added bit by bit into a plain big integer (separate
// positive and negative magnitudes), and the difference is rounded by the hardware:
// its top 64 bits with a sticky bit jammed into the lowest (so the one uint64 -> double
// conversion rounds as the exact value would), then scaled by ldexp (exact there).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace raydb::test {

class ExactSumOracle {
 public:
  void add(double x) {
    if (std::isnan(x)) {
      nan_ = true;
      return;
    }
    if (std::isinf(x)) {
      (x > 0 ? pinf_ : ninf_) = true;
      return;
    }
    if (!(x == 0 && std::signbit(x))) not_neg_zero_ = true;
    if (x == 0) return;
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);  // |x| = f * 2^e, f in [0.5, 1)
    uint64_t m = uint64_t(std::ldexp(f, 53));     // exact: 53 significant bits
    int shift = e - 53 + 1074;                     // |x| = m * 2^shift units of 2^-1074
    while (shift < 0) {                            // subnormals: m has trailing zeros
      m >>= 1;
      shift++;
    }
    auto& acc = x > 0 ? pos_ : neg_;
    for (int b = 0; b < 64; b++)
      if (m >> b & 1) add_bit(acc, shift + b);
  }

  double result() const {
    if (nan_ || (pinf_ && ninf_)) return std::numeric_limits<double>::quiet_NaN();
    if (pinf_) return std::numeric_limits<double>::infinity();
    if (ninf_) return -std::numeric_limits<double>::infinity();
    const int c = compare(pos_, neg_);
    if (c == 0) return not_neg_zero_ ? 0.0 : -0.0;
    std::vector<uint32_t> d = c > 0 ? sub(pos_, neg_) : sub(neg_, pos_);
    int top = int(d.size()) * 32 - 1;
    while (!(d[size_t(top / 32)] >> (top % 32) & 1)) top--;
    double mag;
    if (top < 64) {
      // One rounding in the conversion (none below 2^53 units); ldexp is exact.
      mag = std::ldexp(double(bits(d, 0, 64)), -1074);
    } else {
      const int low = top - 63;
      uint64_t t = bits(d, low, 64);
      bool sticky = false;
      for (int b = 0; b < low && !sticky; b++) sticky = d[size_t(b / 32)] >> (b % 32) & 1;
      mag = std::ldexp(double(t | uint64_t(sticky)), low - 1074);
    }
    return c > 0 ? mag : -mag;
  }

 private:
  static constexpr size_t kWords = 80;  // 2560 bits
  static void add_bit(std::vector<uint32_t>& a, int bit) {
    size_t w = size_t(bit / 32);
    uint64_t carry = uint64_t(1) << (bit % 32);
    while (carry) {
      const uint64_t s = uint64_t(a[w]) + carry;
      a[w] = uint32_t(s);
      carry = s >> 32;
      w++;
    }
  }
  static int compare(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    for (size_t i = kWords; i-- > 0;)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
  static std::vector<uint32_t> sub(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    std::vector<uint32_t> r(kWords);
    int64_t borrow = 0;
    for (size_t i = 0; i < kWords; i++) {
      int64_t v = int64_t(a[i]) - int64_t(b[i]) - borrow;
      borrow = v < 0;
      r[i] = uint32_t(v + (borrow << 32));
    }
    return r;
  }
  static uint64_t bits(const std::vector<uint32_t>& d, int from, int len) {
    uint64_t r = 0;
    for (int b = 0; b < len; b++) {
      const int i = from + b;
      if (size_t(i / 32) < d.size() && (d[size_t(i / 32)] >> (i % 32) & 1)) r |= uint64_t(1) << b;
    }
    return r;
  }
  std::vector<uint32_t> pos_ = std::vector<uint32_t>(kWords), neg_ = std::vector<uint32_t>(kWords);
  bool nan_ = false, pinf_ = false, ninf_ = false, not_neg_zero_ = false;
};

}  // namespace raydb::test
