#pragma once
// The CPU pipeline's side of a LIMIT pushed into the scan (plan/logical/limit_prefix.h):
// morsels are taken in scan order by several threads; once the morsels before some
// point have all finished and together produced the rows needed, every later morsel
// is skipped. The finisher keeps the first rows in scan order, so the answer is the
// one a full scan gives.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace raydb::exec::cpu {

class PrefixLimit {
 public:
  PrefixLimit(uint64_t rows_needed, size_t units);
  // False when the finished morsels before `unit` already hold the rows needed.
  bool needed(size_t unit) const { return unit < stop_at_.load(std::memory_order_relaxed); }
  void finished(size_t unit, uint64_t rows);
  uint64_t rows_needed() const { return rows_needed_; }

 private:
  const uint64_t rows_needed_;
  std::mutex mutex_;
  std::vector<int64_t> rows_;  // per morsel; -1 while it runs or waits
  size_t frontier_ = 0;        // morsels [0, frontier_) have finished
  uint64_t prefix_rows_ = 0;   // their rows
  std::atomic<size_t> stop_at_;
};

}  // namespace raydb::exec::cpu
