#pragma once
// The frame of each row of a partition, as PostgreSQL defines it: ROWS bounds count
// rows from the current one; RANGE bounds without offsets stop at the current row's
// peer group (rows equal in the ORDER BY keys; without ORDER BY every row is a peer).
// Both edges never move backwards as the current row advances, which the sliding
// aggregates rely on.
#include <cstddef>

#include "exec/cpu/window/window_partitions.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cpu {

class WindowFrame {
 public:
  WindowFrame(const plan::WindowExpr& w, const WindowPartitions& parts) : w_(w), parts_(parts) {}
  // Frame [begin, end) of position i in partition [ps, pe); end <= begin: empty.
  void bounds(size_t i, size_t ps, size_t pe, size_t& begin, size_t& end) const;

 private:
  size_t edge(const plan::FrameBound& b, bool is_end, size_t i, size_t ps, size_t pe) const;
  const plan::WindowExpr& w_;
  const WindowPartitions& parts_;
};

}  // namespace raydb::exec::cpu
