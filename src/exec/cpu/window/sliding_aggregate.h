#pragma once
// COUNT, SUM, AVG, MIN and MAX of one partition's frames. Frame edges never move
// backwards (window_frame.h), so each aggregate slides in O(1) amortized per row:
// COUNT and SUM add the rows entering the frame and subtract those leaving it (exact:
// int128 for exact types, ExactDoubleSum for DOUBLE with infinities and NaN counted
// aside, so removal is exact too); MIN and MAX keep a monotonic deque of candidate
// rows. No frame is ever re-scanned, so a frame of any size costs O(n) per partition.
#include <atomic>
#include <cstdint>
#include <deque>
#include <vector>

#include "exec/core/exact_double_sum.h"
#include "exec/core/vector.h"

namespace raydb::exec::cpu {

// Per output row (indexed by row id): rows counted and the sum of the frame.
struct FrameSums {
  std::vector<int64_t> count;
  std::vector<__int128> sum;      // exact kinds
  std::vector<double> sum_d;      // DOUBLE: the exact sum rounded once
  std::atomic<bool> overflow{false};  // a 128-bit sum left int128
};

class SlidingSum {
 public:
  // `arg` null: COUNT(*). Positions index `order` (row ids in window order).
  SlidingSum(const Vector* arg, const uint32_t* order, FrameSums& out) : arg_(arg), order_(order), out_(out) {}
  void add(size_t pos) { step(pos, +1); }
  void remove(size_t pos) { step(pos, -1); }
  void emit(uint32_t row);  // the current frame's count and sum into row `row`

 private:
  void step(size_t pos, int sign);
  const Vector* arg_;
  const uint32_t* order_;
  FrameSums& out_;
  int64_t count_ = 0;
  __int128 sum_ = 0;
  bool overflow_ = false;
  ExactDoubleSum exact_{};
  bool exact_init_ = false;
  int64_t nan_ = 0, pos_inf_ = 0, neg_inf_ = 0, not_neg_zero_ = 0;
};

// The row holding the frame's minimum (or maximum) non-NULL value, -1 when none.
class SlidingExtreme {
 public:
  SlidingExtreme(const Vector& arg, const uint32_t* order, bool max) : arg_(arg), order_(order), max_(max) {}
  void add(size_t pos);
  void remove_before(size_t pos);  // drops candidates at positions < pos
  int64_t best() const { return q_.empty() ? -1 : int64_t(order_[q_.front()]); }

 private:
  bool better_or_equal(uint32_t a, uint32_t b) const;  // a's value is at least as extreme as b's
  const Vector& arg_;
  const uint32_t* order_;
  bool max_;
  std::deque<size_t> q_;  // positions, values strictly worsening from front to back
};

}  // namespace raydb::exec::cpu
