#include "gpu/memory_pool.h"

#include <algorithm>
#include <string>

#include "common/settings.h"
#include "common/stage_times.h"

namespace raydb::gpu {

namespace {

std::string gib(uint64_t b) { return fmt::format("{:.2f} GiB", double(b) / double(uint64_t(1) << 30)); }

}  // namespace

MemoryPool& MemoryPool::instance() {
  static MemoryPool* pool = new MemoryPool();  // never destroyed: buffers may outlive statics
  return *pool;
}

uint64_t MemoryPool::rounded(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  const uint64_t g = bytes > (uint64_t(1) << 20) ? (uint64_t(1) << 16) : 256;
  return (bytes + g - 1) / g * g;
}

// The budget is process-wide, so it comes from the process defaults (Settings()).
uint64_t MemoryPool::budget_locked() {
  if (budget_) return budget_;
  if (const uint64_t limit = Settings().gpu_memory_limit()) {
    budget_ = limit;
  } else {
    size_t free_b = 0, total_b = 0;
    StageScope stage(Stage::kDeviceInit);  // the process's first context-making call
    check_cuda(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    budget_ = uint64_t(double(free_b) * 0.9);
  }
  return budget_;
}

void MemoryPool::free_pooled_locked() {
  for (auto& [b, p] : free_) cudaFree(p);
  free_.clear();
  pooled_ = 0;
}

void* MemoryPool::allocate(uint64_t bytes, const char* what) {
  const uint64_t need = rounded(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t budget = budget_locked();
  // Reuse a pooled block of exactly this size class, so release() with the same
  // `bytes` accounts the block's real size.
  if (auto it = free_.find(need); it != free_.end()) {
    void* p = it->second;
    pooled_ -= it->first;
    free_.erase(it);
    in_use_ += need;
    peak_ = std::max(peak_, in_use_);
    return p;
  }
  if (in_use_ + need > budget)
    fail(ErrorKind::kOutOfMemory,
         "GPU memory budget exceeded allocating {} for {}: {} in use, budget {} (RAYDB_GPU_MEMORY_LIMIT)", gib(need),
         what, gib(in_use_), gib(budget));
  if (in_use_ + pooled_ + need > budget) free_pooled_locked();
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, need);
  if (e != cudaSuccess) {  // pooled blocks may hold what the device lacks: free them, try once more
    (void)cudaGetLastError();
    free_pooled_locked();
    e = cudaMalloc(&p, need);
  }
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    fail(ErrorKind::kOutOfMemory, "GPU out of memory allocating {} for {}: {} free on the device, budget {}", gib(need),
         what, gib(free_b), gib(budget));
  }
  in_use_ += need;
  peak_ = std::max(peak_, in_use_);
  return p;
}

void MemoryPool::release(void* p, uint64_t bytes) {
  if (!p) return;
  const uint64_t size = rounded(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  in_use_ -= size;
  free_.emplace(size, p);
  pooled_ += size;
}

void MemoryPool::trim() {
  std::lock_guard<std::mutex> lock(mutex_);
  free_pooled_locked();
}

PoolStats MemoryPool::stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  PoolStats s;
  s.budget = budget_locked();
  s.in_use = in_use_;
  s.pooled = pooled_;
  s.peak = peak_;
  return s;
}

void MemoryPool::set_budget(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  budget_ = bytes;  // 0: recomputed from the settings / free memory on next use
}

}  // namespace raydb::gpu
