#include "exec/cuda/device_memory.h"

#include <cstdlib>
#include <string>

#include "common/error.h"

namespace raydb::exec::cuda {

void check_cuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear sticky-free errors so later calls start clean
  if (e == cudaErrorMemoryAllocation) fail(ErrorKind::kOutOfMemory, "CUDA {}: out of device memory", what);
  fail(ErrorKind::kInternal, "CUDA {}: {}", what, cudaGetErrorString(e));
}

namespace {

std::string gib(uint64_t b) { return fmt::format("{:.2f} GiB", double(b) / double(uint64_t(1) << 30)); }

uint64_t parse_bytes(const char* text) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || v < 0) fail(ErrorKind::kInvalidInput, "RAYDB_GPU_MEMORY_LIMIT '{}' is not a size", text);
  switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    case '\0': break;
    default: fail(ErrorKind::kInvalidInput, "RAYDB_GPU_MEMORY_LIMIT '{}' is not a size (K, M, G suffixes)", text);
  }
  return uint64_t(v);
}

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

uint64_t MemoryPool::budget_locked() {
  if (budget_) return budget_;
  if (const char* env = std::getenv("RAYDB_GPU_MEMORY_LIMIT"); env && *env) {
    budget_ = parse_bytes(env);
  } else {
    size_t free_b = 0, total_b = 0;
    check_cuda(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    budget_ = uint64_t(double(free_b) * 0.9);
  }
  return budget_;
}

void* MemoryPool::allocate(uint64_t bytes, const char* what) {
  const uint64_t need = rounded(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t budget = budget_locked();
  // Reuse a pooled block of the same size class (at most 2x larger).
  auto it = free_.lower_bound(need);
  if (it != free_.end() && it->first <= 2 * need) {
    // Account the block's real size, so release() with `bytes` must find it: keep
    // exact sizes by handing out only exact matches when sizes differ.
    if (it->first == need) {
      void* p = it->second;
      pooled_ -= it->first;
      free_.erase(it);
      in_use_ += need;
      peak_ = std::max(peak_, in_use_);
      return p;
    }
  }
  if (in_use_ + need > budget)
    fail(ErrorKind::kOutOfMemory,
         "GPU memory budget exceeded allocating {} for {}: {} in use, budget {} (RAYDB_GPU_MEMORY_LIMIT)", gib(need),
         what, gib(in_use_), gib(budget));
  if (in_use_ + pooled_ + need > budget) {
    for (auto& [b, p] : free_) cudaFree(p);
    free_.clear();
    pooled_ = 0;
  }
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, need);
  if (e != cudaSuccess) {
    cudaGetLastError();
    for (auto& [b, q] : free_) cudaFree(q);
    free_.clear();
    pooled_ = 0;
    e = cudaMalloc(&p, need);
  }
  if (e != cudaSuccess) {
    cudaGetLastError();
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
  for (auto& [b, p] : free_) cudaFree(p);
  free_.clear();
  pooled_ = 0;
}

MemoryStats MemoryPool::stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  MemoryStats s;
  s.budget = budget_locked();
  s.in_use = in_use_;
  s.pooled = pooled_;
  s.peak = peak_;
  return s;
}

void MemoryPool::set_budget(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  budget_ = bytes;  // 0: recomputed from the environment / free memory on next use
}

DeviceBuffer::DeviceBuffer(uint64_t bytes, const char* what)
    : p_(MemoryPool::instance().allocate(bytes, what)), bytes_(bytes) {}

void DeviceBuffer::reset() {
  if (p_) MemoryPool::instance().release(p_, bytes_);
  p_ = nullptr;
  bytes_ = 0;
}

PinnedBuffer::PinnedBuffer(uint64_t bytes) { ensure(bytes); }

PinnedBuffer::~PinnedBuffer() {
  if (p_) cudaFreeHost(p_);
}

void PinnedBuffer::ensure(uint64_t bytes) {
  if (bytes <= bytes_) return;
  if (p_) cudaFreeHost(p_);
  p_ = nullptr;
  bytes_ = 0;
  check_cuda(cudaMallocHost(&p_, bytes), "cudaMallocHost (pinned staging buffer)");
  bytes_ = bytes;
}

}  // namespace raydb::exec::cuda
