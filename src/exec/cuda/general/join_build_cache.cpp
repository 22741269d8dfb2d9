#include "exec/cuda/general/join_build_cache.h"

#include "exec/cuda/cuda_device.h"

namespace raydb::exec::cuda::general {

uint64_t KeptJoinBuild::bytes() const {
  uint64_t n = table ? table->bytes() : 0;
  for (auto& k : keys) n += k.values.bytes() + k.nulls.bytes();
  return n;
}

JoinBuildCache& JoinBuildCache::instance() {
  static JoinBuildCache* cache = new JoinBuildCache();  // never destroyed: may outlive the CUDA context
  return *cache;
}

std::shared_ptr<const KeptJoinBuild> JoinBuildCache::find(const JoinBuildKey& k) {
  std::lock_guard<std::mutex> g(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == k) {
      entries_.splice(entries_.begin(), entries_, it);
      hits_++;
      return entries_.front().second;
    }
  return nullptr;
}

void JoinBuildCache::put(JoinBuildKey k, std::shared_ptr<const KeptJoinBuild> b, uint64_t limit) {
  const uint64_t bytes = b->bytes();
  if (bytes > limit) return;
  std::lock_guard<std::mutex> g(mutex_);
  uint64_t total = bytes;
  for (auto& e : entries_) total += e.second->bytes();
  // Entries still read by a running statement stay alive through its shared_ptr.
  while (total > limit && !entries_.empty()) {
    total -= entries_.back().second->bytes();
    entries_.pop_back();
  }
  entries_.emplace_front(std::move(k), std::move(b));
}

size_t JoinBuildCache::size() {
  std::lock_guard<std::mutex> g(mutex_);
  return entries_.size();
}

uint64_t JoinBuildCache::hits() {
  std::lock_guard<std::mutex> g(mutex_);
  return hits_;
}

void JoinBuildCache::clear() {
  std::lock_guard<std::mutex> g(mutex_);
  entries_.clear();
}

}  // namespace raydb::exec::cuda::general

namespace raydb::exec::cuda {

uint64_t kept_join_builds() { return general::JoinBuildCache::instance().size(); }
uint64_t kept_join_build_hits() { return general::JoinBuildCache::instance().hits(); }

}  // namespace raydb::exec::cuda
