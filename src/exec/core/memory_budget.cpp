#include "exec/core/memory_budget.h"

#include "common/error.h"

namespace raydb::exec {

namespace {
std::string mib(uint64_t bytes) { return fmt::format("{:.1f} MiB", double(bytes) / (1024.0 * 1024.0)); }
}  // namespace

void MemoryBudget::charge(uint64_t bytes, const char* what) {
  const uint64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (limit_ != 0 && now > limit_)
    fail(ErrorKind::kOutOfMemory, "out of memory: the query needs more than cpu_memory_limit ({}) for {}", mib(limit_),
         what);
}

void MemoryBudget::check_scratch(uint64_t bytes, const char* what) const {
  if (limit_ != 0 && used() + bytes > limit_)
    fail(ErrorKind::kOutOfMemory, "out of memory: the query needs more than cpu_memory_limit ({}) for {}", mib(limit_),
         what);
}

}  // namespace raydb::exec
