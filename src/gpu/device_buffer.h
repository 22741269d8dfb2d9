#pragma once
// The one device buffer type: an RAII allocation that returns its memory to where it
// came from (by default the accounted pool, so repeated queries reuse it).
#include <cstdint>

#include "gpu/memory_pool.h"

namespace raydb::gpu {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Always allocates (a 0-byte buffer takes the pool's smallest block), as query
  // scratch expects a valid pointer.
  DeviceBuffer(uint64_t bytes, const char* what, DeviceMemory& from = MemoryPool::instance())
      : p_(from.allocate(bytes, what)), bytes_(bytes), from_(&from) {}
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_), from_(o.from_) { o.p_ = nullptr, o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_, bytes_ = o.bytes_, from_ = o.from_;
      o.p_ = nullptr, o.bytes_ = 0;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void reset() {
    if (p_) from_->release(p_, bytes_);
    p_ = nullptr;
    bytes_ = 0;
  }
  template <typename T = void>
  T* get() const {
    return static_cast<T*>(p_);
  }
  uint64_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  uint64_t bytes_ = 0;
  DeviceMemory* from_ = nullptr;
};

}  // namespace raydb::gpu
