#include "storage/buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/error.h"

namespace raydb {

Buffer::~Buffer() {
  if (!data_ || owner_) return;  // an adopted vector is freed by owner_
  if (mapped_)
    munmap(data_, size_);
  else
    std::free(data_);
}

std::shared_ptr<Buffer> Buffer::allocate(size_t bytes) {
  std::shared_ptr<Buffer> b(new Buffer());
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded == 0) rounded = 64;
  b->data_ = std::aligned_alloc(64, rounded);
  if (!b->data_) fail(ErrorKind::kOutOfMemory, "cannot allocate {} bytes of host memory", bytes);
  b->size_ = bytes;
  return b;
}

template <typename T>
std::shared_ptr<Buffer> Buffer::adopt(std::vector<T>&& values, size_t bytes) {
  if (bytes > values.size() * sizeof(T))
    fail(ErrorKind::kInternal, "Buffer::adopt: {} bytes asked of a vector of {}", bytes, values.size() * sizeof(T));
  if (bytes == 0) return allocate(0);  // a valid pointer, as every empty heap buffer has
  auto owner = std::make_shared<std::vector<T>>(std::move(values));
  std::shared_ptr<Buffer> b(new Buffer());
  b->data_ = owner->data();
  b->size_ = bytes;
  b->owner_ = std::move(owner);
  return b;
}

template std::shared_ptr<Buffer> Buffer::adopt(std::vector<int64_t>&&, size_t);
template std::shared_ptr<Buffer> Buffer::adopt(std::vector<int32_t>&&, size_t);
template std::shared_ptr<Buffer> Buffer::adopt(std::vector<double>&&, size_t);

std::shared_ptr<Buffer> Buffer::map_file(const std::string& path, size_t expected_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(ErrorKind::kIO, "cannot open {}: {}", path, std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    ::close(fd);
    fail(ErrorKind::kIO, "cannot stat {}: {}", path, std::strerror(errno));
  }
  if (size_t(st.st_size) != expected_bytes) {
    ::close(fd);
    fail(ErrorKind::kCatalog, "column file {} has {} bytes, the manifest says {}", path, st.st_size, expected_bytes);
  }
  std::shared_ptr<Buffer> b(new Buffer());
  b->size_ = expected_bytes;
  if (expected_bytes == 0) {
    ::close(fd);
    return b;
  }
  void* p = mmap(nullptr, expected_bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) fail(ErrorKind::kIO, "cannot map {}: {}", path, std::strerror(errno));
  b->data_ = p;
  b->mapped_ = true;
  return b;
}

}  // namespace raydb
