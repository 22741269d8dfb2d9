#pragma once
// Page-locked host memory (cudaMallocHost), so copies run at full PCIe speed and
// asynchronously.
#include <cstdint>

namespace raydb::gpu {

class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(uint64_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void ensure(uint64_t bytes);  // grows (reallocates, contents lost) when smaller
  void release();               // frees the memory (ensure() pins it again)
  template <typename T = void>
  T* get() const {
    return static_cast<T*>(p_);
  }
  uint64_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace raydb::gpu
