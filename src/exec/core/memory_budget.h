#pragma once
// A query's host memory budget (setting cpu_memory_limit): the CPU executor charges
// what grows with the data (join tables, group tables and aggregate states, result
// rows) before or as it holds it, so a huge cross join or GROUP BY ends in a one-line
// "out of memory" error instead of the kernel's OOM killer. Charges are estimates of
// the structures' sizes, not of every allocation; they are never released during the
// query (the structures live until its end).
#include <atomic>
#include <cstdint>

namespace raydb::exec {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}
  // Adds `bytes` held for `what`; Error(kOutOfMemory) once the total passes the limit.
  // Thread-safe (pipeline workers charge concurrently).
  void charge(uint64_t bytes, const char* what);
  // Fails like charge() when `bytes` of scratch, held only for a moment (a batch's
  // cross-join expansion), would not fit beside what is charged; charges nothing.
  void check_scratch(uint64_t bytes, const char* what) const;
  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_; }

 private:
  uint64_t limit_;  // 0: none
  std::atomic<uint64_t> used_{0};
};

}  // namespace raydb::exec
