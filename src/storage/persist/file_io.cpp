#include "storage/persist/file_io.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace raydb::persist {

namespace {
void write_all(int fd, const std::string& path, const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    // Linux writes at most ~2 GiB per call; keep pieces moderate.
    size_t n = std::min<size_t>(bytes, size_t(1) << 30);
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(ErrorKind::kIO, "cannot write {}: {}", path, std::strerror(errno));
    }
    p += w;
    bytes -= size_t(w);
  }
}
}  // namespace

void write_file_durably(const std::string& path, const FilePiece* pieces, size_t count) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(ErrorKind::kIO, "cannot create {}: {}", path, std::strerror(errno));
  try {
    for (size_t i = 0; i < count; i++) write_all(fd, path, pieces[i].data, pieces[i].bytes);
    if (::fsync(fd) != 0) fail(ErrorKind::kIO, "cannot fsync {}: {}", path, std::strerror(errno));
  } catch (...) {
    // No half-written file stays behind (a full disk, an I/O error).
    ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    int e = errno;
    ::unlink(path.c_str());
    fail(ErrorKind::kIO, "cannot close {}: {}", path, std::strerror(e));
  }
}

void write_file_durably(const std::string& path, const void* data, size_t bytes) {
  FilePiece piece{data, bytes};
  write_file_durably(path, &piece, 1);
}

std::string read_small_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(ErrorKind::kIO, "cannot open {}: {}", path, std::strerror(errno));
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      fail(ErrorKind::kIO, "cannot read {}: {}", path, std::strerror(e));
    }
    if (r == 0) break;
    out.append(buf, size_t(r));
  }
  ::close(fd);
  return out;
}

void fsync_directory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(ErrorKind::kIO, "cannot open directory {}: {}", dir, std::strerror(errno));
  int rc = ::fsync(fd);
  int e = errno;
  ::close(fd);
  if (rc != 0) fail(ErrorKind::kIO, "cannot fsync directory {}: {}", dir, std::strerror(e));
}

DirectoryLock::DirectoryLock(const std::string& dir, Mode mode) {
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) fail(ErrorKind::kIO, "cannot open directory {}: {}", dir, std::strerror(errno));
  int op = mode == Mode::kExclusive ? LOCK_EX : LOCK_SH;
  while (::flock(fd_, op) != 0) {
    if (errno == EINTR) continue;
    int e = errno;
    ::close(fd_);
    fd_ = -1;
    fail(ErrorKind::kIO, "cannot lock directory {}: {}", dir, std::strerror(e));
  }
  locked_ = true;
}

DirectoryLock DirectoryLock::try_exclusive(const std::string& dir) {
  DirectoryLock lock;
  lock.fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock.fd_ < 0) return lock;
  lock.locked_ = ::flock(lock.fd_, LOCK_EX | LOCK_NB) == 0;
  return lock;
}

DirectoryLock::DirectoryLock(DirectoryLock&& other) noexcept : fd_(other.fd_), locked_(other.locked_) {
  other.fd_ = -1;
  other.locked_ = false;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

std::string sanitize_file_component(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (out.size() >= 48) break;
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 'A' && u <= 'Z')
      out += char(u - 'A' + 'a');
    else if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '_')
      out += char(u);
    else
      out += '_';
  }
  if (out.empty()) out = "_";
  return out;
}

}  // namespace raydb::persist
