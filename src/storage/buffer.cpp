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
  if (!data_) return;
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
