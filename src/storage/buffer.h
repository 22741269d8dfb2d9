#pragma once
// Immutable bytes behind a column: heap memory (64-byte aligned), a read-only mmap of
// a column file, or the storage of a std::vector handed over whole (a query result's
// column kept as a table without a copy; malloc's alignment, 16 bytes). Shared by
// columns, never copied.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
  // Takes over `values` (moved, not copied): the first `bytes` bytes of its storage
  // (at most values.size() * sizeof(T)) are the buffer's, freed with the buffer.
  template <typename T>
  static std::shared_ptr<Buffer> adopt(std::vector<T>&& values, size_t bytes);

  const void* data() const { return data_; }
  void* mutable_data() { return data_; }  // heap buffers only, before sharing
  size_t size() const { return size_; }
  bool is_mapped() const { return mapped_; }

 private:
  Buffer() = default;
  void* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::shared_ptr<void> owner_;  // an adopted vector; data_ points into it
};

}  // namespace raydb
