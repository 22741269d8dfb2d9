#pragma once
// A typed device allocation, freed on destruction; what the GPU-resident indexes keep
// resident. Memory comes from cudaMalloc, or from the caller's allocator when the index
// was given GpuMemoryHooks (the SQL executor's accounted pool). Out of memory is
// Error(kOutOfMemory) with the size.
#include <cuda_runtime.h>

#include <cstddef>
#include <span>

#include "access/gpu/gpu_indexes.h"
#include "common/error.h"

namespace raydb::access::gpu {

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(size_t n, const GpuMemoryHooks* memory = nullptr) : mem_(memory) { allocate(n); }
  ~DeviceArray() { reset(); }
  DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), n_(o.n_), mem_(o.mem_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_;
      n_ = o.n_;
      mem_ = o.mem_;
      o.p_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  // Where later allocations come from (null: cudaMalloc).
  void use(const GpuMemoryHooks* memory) {
    reset();
    mem_ = memory;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  void allocate(size_t n) {
    reset();
    if (n == 0) return;
    if (mem_ != nullptr) {
      p_ = static_cast<T*>(mem_->allocate(n * sizeof(T), "a GPU index"));
      n_ = n;
      return;
    }
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, n * sizeof(T));
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      fail(e == cudaErrorMemoryAllocation ? ErrorKind::kOutOfMemory : ErrorKind::kExecution,
           "GPU index: cannot allocate {:.1f} MiB of GPU memory ({})", n * sizeof(T) / 1048576.0,
           cudaGetErrorString(e));
    }
    p_ = static_cast<T*>(p);
    n_ = n;
  }
  void reset() {
    if (p_ != nullptr) {
      if (mem_ != nullptr)
        mem_->release(p_, n_ * sizeof(T));
      else
        cudaFree(p_);
    }
    p_ = nullptr;
    n_ = 0;
  }
  void upload(std::span<const T> host) {
    allocate(host.size());
    copy_in(host);
  }
  void copy_in(std::span<const T> host) {
    if (!host.empty()) cuda_ok(cudaMemcpy(p_, host.data(), host.size_bytes(), cudaMemcpyHostToDevice), "upload");
  }
  void copy_out(std::span<T> host) const {
    if (!host.empty()) cuda_ok(cudaMemcpy(host.data(), p_, host.size_bytes(), cudaMemcpyDeviceToHost), "download");
  }
  T* data() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }

  static void cuda_ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) fail(ErrorKind::kExecution, "GPU index: {} failed: {}", what, cudaGetErrorString(e));
  }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
  const GpuMemoryHooks* mem_ = nullptr;
};

}  // namespace raydb::access::gpu
