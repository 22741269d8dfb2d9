#pragma once
// Device memory for the CUDA backend: one accounted pool with a budget, RAII
// buffers that return their memory to the pool (so repeated queries reuse it and
// the timed path calls no cudaMalloc), and pinned host buffers for transfers.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "exec/cuda/cuda_device.h"

namespace raydb::exec::cuda {

// Throws Error(kInternal) naming `what` when `e` is an error.
void check_cuda(cudaError_t e, const char* what);

class MemoryPool {
 public:
  static MemoryPool& instance();
  // Throws Error(kOutOfMemory) with what was needed, what is free and the budget.
  void* allocate(uint64_t bytes, const char* what);
  void release(void* p, uint64_t bytes);
  void trim();  // frees pooled (unused) blocks
  MemoryStats stats();
  void set_budget(uint64_t bytes);
  static uint64_t rounded(uint64_t bytes);

 private:
  uint64_t budget_locked();
  std::mutex mutex_;
  std::multimap<uint64_t, void*> free_;
  uint64_t in_use_ = 0, pooled_ = 0, peak_ = 0, budget_ = 0;
};

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(uint64_t bytes, const char* what);
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr, o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_, bytes_ = o.bytes_;
      o.p_ = nullptr, o.bytes_ = 0;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void reset();
  template <typename T = void>
  T* get() const {
    return static_cast<T*>(p_);
  }
  uint64_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  uint64_t bytes_ = 0;
};

// Page-locked host memory (cudaMallocHost), so copies run at full PCIe speed and
// asynchronously.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(uint64_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void ensure(uint64_t bytes);  // grows (reallocates) when smaller
  template <typename T = void>
  T* get() const {
    return static_cast<T*>(p_);
  }
  uint64_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace raydb::exec::cuda
