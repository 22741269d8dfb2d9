#include "exec/core/group_runs.h"

namespace raydb::exec {

void GroupRuns::build(const uint32_t* gids, size_t n, size_t groups) {
  counts_.assign(groups, 0);
  for (size_t i = 0; i < n; i++) counts_[gids[i]]++;
  group_.clear();
  begin_.clear();
  uint32_t at = 0;
  for (size_t g = 0; g < groups; g++) {
    const uint32_t c = counts_[g];
    if (c == 0) continue;
    group_.push_back(uint32_t(g));
    begin_.push_back(at);
    counts_[g] = at;
    at += c;
  }
  begin_.push_back(at);
  order_.resize(n);
  for (size_t i = 0; i < n; i++) order_[counts_[gids[i]]++] = uint32_t(i);
}

}  // namespace raydb::exec
