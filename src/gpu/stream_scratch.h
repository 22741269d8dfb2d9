#pragma once
// Short-lived device scratch (CUB temporaries, sort keys) from CUDA's stream-ordered
// allocator on the default stream: allocated and freed in stream order, so it needs no
// synchronization. Used by the index builds and RT scan, whose scratch sits outside the
// accounted pool. Out of memory is Error(kOutOfMemory) "<who>: out of GPU memory for
// N MiB of temporaries". C++17 (device code includes it).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "common/error.h"

namespace raydb::gpu {

class StreamScratch {
 public:
  StreamScratch(size_t bytes, const char* who) {
    if (bytes > 0 && cudaMallocAsync(&p_, bytes, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      throw Error(ErrorKind::kOutOfMemory,
                  std::string(who) + ": out of GPU memory for " + std::to_string(bytes >> 20) + " MiB of temporaries");
    }
  }
  ~StreamScratch() {
    if (p_ != nullptr) cudaFreeAsync(p_, 0);
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  template <typename T>
  T* as() const {
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
};

}  // namespace raydb::gpu
