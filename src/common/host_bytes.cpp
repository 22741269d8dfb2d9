#include "common/host_bytes.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include "common/error.h"

namespace raydb {

namespace {

constexpr uint64_t kHugePage = uint64_t(2) << 20;
// Unmapping this much or more (about 16k 4 KiB pages without huge pages) goes to a
// background thread.
constexpr uint64_t kBackgroundUnmap = uint64_t(64) << 20;

}  // namespace

HostBytes::HostBytes(uint64_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  map_bytes_ = bytes + kHugePage;  // room to align the start to a huge page
  map_ = ::mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    fail(ErrorKind::kIO, "cannot map {} bytes of host memory: {}", bytes, std::strerror(errno));
  }
  const uint64_t at = (reinterpret_cast<uintptr_t>(map_) + kHugePage - 1) & ~(kHugePage - 1);
  data_ = reinterpret_cast<char*>(at);
  ::madvise(data_, (bytes + kHugePage - 1) & ~(kHugePage - 1), MADV_HUGEPAGE);  // advice only: may be off
}

HostBytes::~HostBytes() { release(); }

HostBytes::HostBytes(HostBytes&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      map_(std::exchange(o.map_, nullptr)),
      map_bytes_(std::exchange(o.map_bytes_, 0)) {}

HostBytes& HostBytes::operator=(HostBytes&& o) noexcept {
  if (this != &o) {
    release();
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    map_ = std::exchange(o.map_, nullptr);
    map_bytes_ = std::exchange(o.map_bytes_, 0);
  }
  return *this;
}

void HostBytes::release() {
  if (!map_) return;
  void* m = std::exchange(map_, nullptr);
  const uint64_t n = std::exchange(map_bytes_, 0);
  data_ = nullptr;
  size_ = 0;
  if (n < kBackgroundUnmap) {
    ::munmap(m, n);
    return;
  }
  try {
    std::thread([m, n] { ::munmap(m, n); }).detach();
  } catch (const std::system_error&) {
    ::munmap(m, n);  // no thread to spare: unmap here
  }
}

}  // namespace raydb
