#pragma once
// A large block of ordinary host memory for data read once and then copied on (a
// prefetched column file): an anonymous mapping aligned to 2 MiB and advised for
// transparent huge pages, so filling it takes a page fault per 2 MiB rather than per
// 4 KiB, and freeing it is cheap. Large blocks are unmapped on a background thread,
// so the thread that drops the last reference does not wait for the kernel.
#include <cstdint>

namespace raydb {

class HostBytes {
 public:
  HostBytes() = default;
  // kIO (one line) when the memory cannot be mapped.
  explicit HostBytes(uint64_t bytes);
  ~HostBytes();
  HostBytes(HostBytes&& o) noexcept;
  HostBytes& operator=(HostBytes&& o) noexcept;
  HostBytes(const HostBytes&) = delete;
  HostBytes& operator=(const HostBytes&) = delete;

  char* data() const { return data_; }
  uint64_t size() const { return size_; }

 private:
  void release();
  char* data_ = nullptr;
  uint64_t size_ = 0;
  void* map_ = nullptr;  // the mapping (data_ rounded up to 2 MiB inside it)
  uint64_t map_bytes_ = 0;
};

}  // namespace raydb
