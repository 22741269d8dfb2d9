#pragma once
// Computes one window function for every row: the rows are put in window order
// (window_partitions.h), each partition is evaluated on its own (in parallel across
// partitions), and the results land at the rows' input positions.
#include <vector>

#include "exec/core/key_encoder.h"
#include "exec/core/vector.h"
#include "exec/cpu/window/window_partitions.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cpu {

class WindowEvaluator {
 public:
  // args / partition / order: the window's expressions evaluated over all n rows.
  WindowEvaluator(const plan::WindowExpr& w, std::vector<Vector> args, const std::vector<Vector>& partition,
                  const std::vector<Vector>& order, size_t n, int threads, StringInterner* interner);
  Vector run();

 private:
  // Runs fn(partition begin, partition end) for every partition, across threads.
  template <class Fn>
  void each_partition(Fn fn) const;
  Vector ranking() const;       // row_number, rank, dense_rank, percent_rank, cume_dist, ntile
  Vector lag_lead() const;
  Vector frame_value() const;   // first_value, last_value, nth_value
  Vector frame_extreme() const; // MIN, MAX
  Vector frame_sum() const;     // COUNT, SUM, AVG
  // Rows src[i] of `values` (src[i] < 0: NULL), as one vector of the window's type.
  Vector gather(const Vector& values, const std::vector<int64_t>& src) const;

  const plan::WindowExpr& w_;
  std::vector<Vector> args_;
  size_t n_;
  int threads_;
  StringInterner* interner_;
  WindowPartitions parts_;
};

}  // namespace raydb::exec::cpu
