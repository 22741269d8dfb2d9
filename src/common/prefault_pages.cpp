#include "common/prefault_pages.h"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

namespace raydb {

namespace {

// Cleared once the kernel answers that it does not know the advice (before Linux 5.14).
std::atomic<bool> g_supported{true};

}  // namespace

void prefault_pages(void* p, uint64_t bytes) {
#ifdef MADV_POPULATE_WRITE
  if (bytes == 0 || !g_supported.load(std::memory_order_relaxed)) return;
  const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
  const uint64_t lo = reinterpret_cast<uintptr_t>(p) / page * page;
  const uint64_t hi = (reinterpret_cast<uintptr_t>(p) + bytes + page - 1) / page * page;
  const uint64_t pages = (hi - lo) / page;
  // Slices of at least 64 pages, one or more per thread.
  const long slices = long(std::min<uint64_t>(uint64_t(std::max(1, omp_get_max_threads())), (pages + 63) / 64));
#pragma omp parallel for schedule(static) if (slices > 1)
  for (long s = 0; s < slices; s++) {
    const uint64_t a = lo + pages * uint64_t(s) / uint64_t(slices) * page;
    const uint64_t b = lo + pages * uint64_t(s + 1) / uint64_t(slices) * page;
    if (a < b && ::madvise(reinterpret_cast<void*>(a), b - a, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
      g_supported.store(false, std::memory_order_relaxed);
  }
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace raydb
