#include "exec/core/distinct_set.h"

namespace raydb::exec {

namespace {
uint64_t hash_entry(const DistinctEntry& e) {
  uint64_t h = uint64_t(e.gid) * 0x9E3779B97F4A7C15ull ^ uint64_t(e.w0) * 0xBF58476D1CE4E5B9ull ^
               uint64_t(e.w1) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}
}  // namespace

void DistinctSet::grow() {
  const size_t cap = slots_.empty() ? 64 : slots_.size() * 2;
  slots_.assign(cap, 0);
  mask_ = cap - 1;
  for (size_t i = 0; i < entries_.size(); i++) {
    uint64_t s = hash_entry(entries_[i]) & mask_;
    while (slots_[s]) s = (s + 1) & mask_;
    slots_[s] = uint32_t(i + 1);
  }
}

void DistinctSet::insert(const DistinctEntry& e) {
  if ((entries_.size() + 1) * 2 > slots_.size()) grow();
  uint64_t s = hash_entry(e) & mask_;
  while (const uint32_t v = slots_[s]) {
    if (entries_[v - 1] == e) return;
    s = (s + 1) & mask_;
  }
  entries_.push_back(e);
  slots_[s] = uint32_t(entries_.size());
}

}  // namespace raydb::exec
