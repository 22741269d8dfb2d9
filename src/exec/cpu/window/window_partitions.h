#pragma once
// The rows of one window specification in window order: sorted by the PARTITION BY
// keys, then the ORDER BY keys (ASC/DESC, NULLS FIRST/LAST), ties in input order (a
// stable sort, so results do not depend on thread counts). Partitions and peer groups
// (rows equal in every ORDER BY key) are ranges of that order.
#include <cstdint>
#include <vector>

#include "exec/core/vector.h"

namespace raydb::exec::cpu {

// Three-way comparison of rows a and b of v, both non-NULL, in SQL's ascending order
// (DOUBLE: NaN above every number and equal to itself, -0.0 = +0.0).
int compare_values(const Vector& v, size_t a, size_t b);

class WindowPartitions {
 public:
  struct Key {
    const Vector* values;
    bool descending = false;
    bool nulls_first = false;
  };
  // `partition` and `order` hold n rows each.
  WindowPartitions(const std::vector<const Vector*>& partition, const std::vector<Key>& order, size_t n);

  const std::vector<uint32_t>& order() const { return order_; }  // row ids in window order
  // Partition p is positions [partition_begin(p), partition_begin(p + 1)).
  size_t partitions() const { return part_.size() - 1; }
  size_t partition_begin(size_t p) const { return part_[p]; }
  // The first position of the peer group of position i, and one past its last.
  size_t peer_begin(size_t i) const { return peer_begin_[i]; }
  size_t peer_end(size_t i) const { return peer_end_[i]; }

 private:
  std::vector<uint32_t> order_;
  std::vector<size_t> part_;
  std::vector<uint32_t> peer_begin_, peer_end_;
};

}  // namespace raydb::exec::cpu
