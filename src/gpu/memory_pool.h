#pragma once
// The accounted device memory pool: one per process, with a budget (the setting
// gpu_memory_limit, default 90% of the device's free memory at first use). Freed
// blocks stay pooled for reuse, so repeated queries do no cudaMalloc on the timed
// path; out of budget or device memory is Error(kOutOfMemory) with need, in-use and
// budget.
#include <cstdint>
#include <map>
#include <mutex>

#include "gpu/device_memory.h"

namespace raydb::gpu {

struct PoolStats {
  uint64_t budget = 0, in_use = 0, pooled = 0, peak = 0;
};

class MemoryPool final : public DeviceMemory {
 public:
  static MemoryPool& instance();
  void* allocate(uint64_t bytes, const char* what) override;
  void release(void* p, uint64_t bytes) override;
  void trim();  // frees pooled (unused) blocks
  PoolStats stats();
  void set_budget(uint64_t bytes);  // 0: the process default again
  static uint64_t rounded(uint64_t bytes);

 private:
  MemoryPool() = default;
  uint64_t budget_locked();
  void free_pooled_locked();
  std::mutex mutex_;
  std::multimap<uint64_t, void*> free_;
  uint64_t in_use_ = 0, pooled_ = 0, peak_ = 0, budget_ = 0;
};

}  // namespace raydb::gpu
