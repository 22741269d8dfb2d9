#include "access/gpu/gpu_hash_index.h"

#include "common/timer.h"

namespace raydb::access::gpu {

GpuHashIndex::GpuHashIndex(std::span<const uint64_t> keys, std::span<const int64_t> values, bool sorted_probes,
                           DeviceMemory* memory)
    : GpuKeyIndex(sorted_probes, memory) {
  sk_.build(keys, values, stats_);
  Timer t;
  uint64_t capacity = 16;
  while (capacity < 2 * static_cast<uint64_t>(sk_.units())) capacity <<= 1;
  slots_.use(memory_);
  slots_.allocate(capacity);
  hash_build(sk_.unit_keys(), static_cast<uint32_t>(sk_.units()), slots_.data(), capacity);
  sk_.drop_keys();
  stats_.build_ms += t.elapsed_ms();
  stats_.memory_bytes = sk_.memory_bytes() + slots_.bytes();
  stats_.peak_build_bytes = stats_.memory_bytes + keys.size() * 28;
}

double GpuHashIndex::pass(rt::mapping::BucketLookupParams& p) const {
  return hash_lookup(slots_.data(), slots_.size(), p);
}

}  // namespace raydb::access::gpu
