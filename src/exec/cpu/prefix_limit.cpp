#include "exec/cpu/prefix_limit.h"

namespace raydb::exec::cpu {

PrefixLimit::PrefixLimit(uint64_t rows_needed, size_t units)
    : rows_needed_(rows_needed), rows_(units, -1), stop_at_(rows_needed == 0 ? 0 : units) {}

void PrefixLimit::finished(size_t unit, uint64_t rows) {
  std::lock_guard<std::mutex> lock(mutex_);
  rows_[unit] = int64_t(rows);
  while (frontier_ < rows_.size() && rows_[frontier_] >= 0) prefix_rows_ += uint64_t(rows_[frontier_++]);
  if (prefix_rows_ >= rows_needed_ && frontier_ < stop_at_.load()) stop_at_.store(frontier_);
}

}  // namespace raydb::exec::cpu
