#pragma once
// Immutable bytes behind a column: either heap memory (64-byte aligned) or a
// read-only mmap of a column file. Shared by columns, never copied.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace raydb {

class Buffer {
 public:
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Uninitialized heap memory; throws Error(kOutOfMemory) when it cannot be had.
  static std::shared_ptr<Buffer> allocate(size_t bytes);
  // Maps `path` read-only; throws Error(kIO) when missing, or kCatalog when its size
  // differs from `expected_bytes` (a truncated or foreign file).
  static std::shared_ptr<Buffer> map_file(const std::string& path, size_t expected_bytes);

  const void* data() const { return data_; }
  void* mutable_data() { return data_; }  // heap buffers only, before sharing
  size_t size() const { return size_; }
  bool is_mapped() const { return mapped_; }

 private:
  Buffer() = default;
  void* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace raydb
