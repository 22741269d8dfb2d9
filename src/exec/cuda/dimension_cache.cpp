#include "exec/cuda/dimension_cache.h"

#include <algorithm>

namespace raydb::exec::cuda {

uint64_t DimArrays::bytes() const {
  return lookup.bytes() + flags.bytes() + dense.bytes() + inv.bytes() + translated.bytes() + narrow.bytes();
}

DimensionCache& DimensionCache::instance() {
  static DimensionCache* c = new DimensionCache();  // never destroyed: may outlive the CUDA context
  return *c;
}

std::shared_ptr<DimArrays> DimensionCache::find(const DimKey& k) {
  std::lock_guard<std::mutex> g(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == k) {
      entries_.splice(entries_.begin(), entries_, it);
      return entries_.front().second;
    }
  return nullptr;
}

void DimensionCache::put(DimKey k, std::shared_ptr<DimArrays> a) {
  std::lock_guard<std::mutex> g(mutex_);
  // At most an eighth of the device budget (gpu_memory_limit), so that kept arrays
  // never push a query that fits without them out of memory by much; arrays larger than
  // that are not kept (the statement still owns them).
  const uint64_t limit = std::min(kMaxBytes, gpu::MemoryPool::instance().stats().budget / 8);
  if (a->bytes() > limit) return;
  entries_.emplace_front(std::move(k), std::move(a));
  uint64_t total = 0;
  size_t n = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    total += it->second->bytes();
    if (++n > kMaxEntries || total > limit) {
      total -= it->second->bytes();
      it = entries_.erase(it);  // a statement using the arrays keeps them alive
    } else {
      ++it;
    }
  }
}

void DimensionCache::clear() {
  std::lock_guard<std::mutex> g(mutex_);
  entries_.clear();
}

}  // namespace raydb::exec::cuda
