#pragma once
// The CPU pipeline's side of a LIMIT pushed into the scan (plan/logical/limit_prefix.h):
// morsels are taken in scan order by several threads; once finished morsels before
// some point have together produced the rows needed, every morsel from that point on
// is skipped: its rows come after at least that many rows in scan order, whatever the
// morsels still running before it produce. The finisher keeps the first rows in scan
// order, so the answer is the one a full scan gives, and a thread that runs ahead of a
// slow one stops as soon as its own finished morsels hold enough.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace raydb::exec::cpu {

class PrefixLimit {
 public:
  PrefixLimit(uint64_t rows_needed, size_t units);
  // False when finished morsels before `unit` already hold the rows needed.
  bool needed(size_t unit) const { return unit < stop_at_.load(std::memory_order_relaxed); }
  void finished(size_t unit, uint64_t rows);
  uint64_t rows_needed() const { return rows_needed_; }

 private:
  const uint64_t rows_needed_;
  std::mutex mutex_;
  std::vector<int64_t> rows_;  // per morsel; -1 while it runs or waits
  size_t frontier_ = 0;        // morsels [0, frontier_) have finished
  uint64_t prefix_rows_ = 0;   // their rows
  size_t last_finished_ = 0;   // one past the highest finished morsel
  std::atomic<size_t> stop_at_;
};

}  // namespace raydb::exec::cpu
