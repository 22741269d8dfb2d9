#pragma once
// The rows of one batch ordered by group id (a counting sort), for aggregations into
// few groups: each SUM/AVG/COUNT then adds a group's rows in a register instead of
// through the group's state slot per row (with 4 groups every row's add waited on the
// previous add to the same slot). Built once per batch, shared by all aggregates.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace raydb::exec {

class GroupRuns {
 public:
  // Group counts up to which building runs pays (the counts array is cleared per batch).
  static constexpr size_t kMaxGroups = 256;

  // Orders rows [0, n) by gids[i] < groups (groups <= kMaxGroups).
  void build(const uint32_t* gids, size_t n, size_t groups);
  size_t runs() const { return group_.size(); }
  uint32_t group(size_t k) const { return group_[k]; }
  const uint32_t* rows(size_t k) const { return order_.data() + begin_[k]; }
  size_t size(size_t k) const { return begin_[k + 1] - begin_[k]; }

 private:
  std::vector<uint32_t> counts_;  // per group: rows, then the next write position
  std::vector<uint32_t> order_;   // row indices, grouped
  std::vector<uint32_t> group_;   // per run: its group id
  std::vector<uint32_t> begin_;   // per run: its first position in order_, plus the end
};

}  // namespace raydb::exec
