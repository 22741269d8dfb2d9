#include "storage/persist/narrowed_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "storage/persist/checksum.h"

namespace raydb::persist {

int open_narrowed(const NarrowedFile& f) {
  const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(ErrorKind::kCatalog, "missing narrowed column file {} ({}): {}", f.path, f.what, std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || uint64_t(st.st_size) != f.bytes()) {
    ::close(fd);
    fail(ErrorKind::kCatalog, "narrowed column file {} ({}) has {} bytes, the manifest says {}", f.path, f.what,
         uint64_t(st.st_size), f.bytes());
  }
  return fd;
}

int read_range(int fd, uint64_t offset, void* out, uint64_t len) {
  char* p = static_cast<char*>(out);
  uint64_t done = 0;
  while (done < len) {
    const ssize_t r = ::pread(fd, p + done, len - done, off_t(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r < 0 ? errno : EIO;
    done += uint64_t(r);
  }
  return 0;
}

void fail_read(const NarrowedFile& f, int err) {
  fail(ErrorKind::kIO, "cannot read narrowed column file {} ({}): {}", f.path, f.what, std::strerror(err));
}

void verify_block_sums(const NarrowedFile& f, const std::vector<uint64_t>& block_sums) {
  const uint64_t sum = f.bytes() == 0 ? file_checksum(nullptr, 0)
                                      : XXH3_64bits(block_sums.data(), block_sums.size() * sizeof(uint64_t));
  if (sum != f.checksum)
    fail(ErrorKind::kCatalog, "narrowed column file {} ({}) is corrupted: its checksum does not match the manifest's",
         f.path, f.what);
}

}  // namespace raydb::persist
