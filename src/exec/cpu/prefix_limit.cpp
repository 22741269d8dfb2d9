#include "exec/cpu/prefix_limit.h"

#include <algorithm>

namespace raydb::exec::cpu {

PrefixLimit::PrefixLimit(uint64_t rows_needed, size_t units)
    : rows_needed_(rows_needed), rows_(units, -1), stop_at_(rows_needed == 0 ? 0 : units) {}

void PrefixLimit::finished(size_t unit, uint64_t rows) {
  std::lock_guard<std::mutex> lock(mutex_);
  rows_[unit] = int64_t(rows);
  last_finished_ = std::max(last_finished_, unit + 1);
  while (frontier_ < rows_.size() && rows_[frontier_] >= 0) prefix_rows_ += uint64_t(rows_[frontier_++]);
  // Past the frontier, unfinished morsels count as empty: the rows of the finished
  // ones still precede every later morsel's.
  uint64_t sum = prefix_rows_;
  size_t at = frontier_;
  const size_t stop = stop_at_.load();
  while (sum < rows_needed_ && at < last_finished_ && at < stop) sum += uint64_t(std::max<int64_t>(rows_[at++], 0));
  if (sum >= rows_needed_ && at < stop) stop_at_.store(at);
}

}  // namespace raydb::exec::cpu
