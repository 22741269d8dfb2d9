#pragma once
// A typed, sized view of a DeviceBuffer with blocking copies: what the GPU-resident
// indexes keep resident. Empty arrays hold no memory. Memory comes from the
// DeviceMemory chosen with use() (the accounted pool when the SQL executor builds the
// index, plain cudaMalloc in the benchmarks).
#include <cstddef>
#include <span>

#include "gpu/device_buffer.h"

namespace raydb::gpu {

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(size_t n, DeviceMemory& from) : from_(&from) { allocate(n); }

  // Where later allocations come from; frees what the array holds.
  void use(DeviceMemory& from) {
    reset();
    from_ = &from;
  }
  void allocate(size_t n) {
    reset();
    if (n == 0) return;
    buf_ = DeviceBuffer(n * sizeof(T), "a GPU index", *from_);
    n_ = n;
  }
  void reset() {
    buf_.reset();
    n_ = 0;
  }
  // Copies fail in `style` with {what} = "upload" / "download".
  void upload(std::span<const T> host, const CudaErrorStyle& style) {
    allocate(host.size());
    copy_in(host, style);
  }
  void copy_in(std::span<const T> host, const CudaErrorStyle& style) {
    if (!host.empty()) check_cuda(cudaMemcpy(data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice), "upload", style);
  }
  void copy_out(std::span<T> host, const CudaErrorStyle& style) const {
    if (!host.empty())
      check_cuda(cudaMemcpy(host.data(), data(), host.size_bytes(), cudaMemcpyDeviceToHost), "download", style);
  }
  T* data() const { return buf_.get<T>(); }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }

 private:
  DeviceBuffer buf_;
  size_t n_ = 0;
  DeviceMemory* from_ = nullptr;
};

}  // namespace raydb::gpu
