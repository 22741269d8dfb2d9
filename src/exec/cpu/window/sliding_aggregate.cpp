#include "exec/cpu/window/sliding_aggregate.h"

#include <cmath>

#include "exec/cpu/window/window_partitions.h"

namespace raydb::exec::cpu {

void SlidingSum::step(size_t pos, int sign) {
  const uint32_t row = order_[pos];
  if (!arg_) {
    count_ += sign;
    return;
  }
  if (arg_->is_null(row)) return;
  count_ += sign;
  switch (arg_->kind) {
    case VectorKind::kInt: sum_ += sign * __int128(arg_->ints[row]); break;  // int64 terms: no overflow
    case VectorKind::kHuge: {
      __int128 r;
      if (sign > 0 ? __builtin_add_overflow(sum_, arg_->huge[row], &r) : __builtin_sub_overflow(sum_, arg_->huge[row], &r))
        overflow_ = true;
      sum_ = r;
      break;
    }
    case VectorKind::kDouble: {
      if (!exact_init_) {
        exact_.init();
        exact_init_ = true;
      }
      const double x = arg_->doubles[row];
      if (std::isnan(x)) nan_ += sign;
      else if (std::isinf(x)) (x > 0 ? pos_inf_ : neg_inf_) += sign;
      else {
        exact_.add(sign > 0 ? x : -x);  // exact: fixed point, so removal undoes the add
        if (!(x == 0 && std::signbit(x))) not_neg_zero_ += sign;
      }
      break;
    }
    default: break;  // COUNT of strings counts only
  }
}

void SlidingSum::emit(uint32_t row) {
  out_.count[row] = count_;
  if (overflow_) out_.overflow = true;
  if (!arg_ || (out_.sum.empty() && out_.sum_d.empty())) return;  // COUNT: counts only
  if (arg_->kind == VectorKind::kDouble) {
    double d = 0;
    if (nan_ > 0 || (pos_inf_ > 0 && neg_inf_ > 0)) d = std::nan("");
    else if (pos_inf_ > 0) d = INFINITY;
    else if (neg_inf_ > 0) d = -INFINITY;
    else if (exact_init_) {
      ExactDoubleSum c = exact_;
      c.flags = 0;  // the window's own infinities and zeros are counted above
      d = bits_double(c.round_bits());
      if (d == 0) d = not_neg_zero_ > 0 ? 0.0 : -0.0;  // -0.0 only when every term is -0.0
    }
    out_.sum_d[row] = d;
  } else {
    out_.sum[row] = sum_;
  }
}

bool SlidingExtreme::better_or_equal(uint32_t a, uint32_t b) const {
  int c;
  if (arg_.kind == VectorKind::kDouble) {
    // MIN prefers -0.0 and MAX +0.0, NaN above +inf, as the grouped aggregates do.
    const uint64_t ka = double_order_key(double_bits(arg_.doubles[a])), kb = double_order_key(double_bits(arg_.doubles[b]));
    c = (ka > kb) - (ka < kb);
  } else if (arg_.kind == VectorKind::kCode) {
    c = (arg_.ints[a] > arg_.ints[b]) - (arg_.ints[a] < arg_.ints[b]);  // order-preserving codes
  } else {
    c = compare_values(arg_, a, b);
  }
  return max_ ? c >= 0 : c <= 0;
}

void SlidingExtreme::add(size_t pos) {
  const uint32_t row = order_[pos];
  if (arg_.is_null(row)) return;
  while (!q_.empty() && better_or_equal(row, order_[q_.back()])) q_.pop_back();
  q_.push_back(pos);
}

void SlidingExtreme::remove_before(size_t pos) {
  while (!q_.empty() && q_.front() < pos) q_.pop_front();
}

}  // namespace raydb::exec::cpu
