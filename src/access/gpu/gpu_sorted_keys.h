#pragma once
// The sorted key column of the GPU-resident indexes, built on the device: keys and
// values uploaded once, (key, row id) pairs sorted by a CUB radix sort over only the
// bits the largest key needs, values gathered into sorted order, and duplicates
// compressed into units (distinct keys with their first position) only when there are
// any: with unique keys, unit u is position u and no unit tables exist.
#include <span>

#include "access/gpu/index_memory.h"
#include "access/rt_index/key_index.h"

namespace raydb::access::gpu {

class GpuSortedKeys {
 public:
  // Fills upload_ms (host -> device copies) and build_ms (everything after, with the
  // data on the device) in stats.
  void build(std::span<const uint64_t> keys, std::span<const int64_t> values, IndexStats& stats);
  // Device memory for the arrays built from now on (default: plain cudaMalloc).
  void use(DeviceMemory& memory) { memory_ = &memory; }

  size_t size() const { return n_; }
  size_t units() const { return units_; }
  const uint64_t* unit_keys() const { return units_ < n_ ? unit_keys_.data() : keys_.data(); }
  const uint32_t* unit_starts() const { return units_ < n_ ? unit_starts_.data() : nullptr; }
  const uint32_t* rows() const { return rows_.data(); }
  const int64_t* values() const { return values_.data(); }
  // Frees the sorted keys (a hash table that keeps its own copy no longer needs them).
  void drop_keys() {
    keys_.reset();
    unit_keys_.reset();
  }
  size_t memory_bytes() const {
    return keys_.bytes() + rows_.bytes() + values_.bytes() + unit_keys_.bytes() + unit_starts_.bytes();
  }

 private:
  size_t n_ = 0, units_ = 0;
  DeviceMemory* memory_ = &index_memory(nullptr);
  DeviceArray<uint64_t> keys_;
  DeviceArray<uint32_t> rows_;
  DeviceArray<int64_t> values_;
  DeviceArray<uint64_t> unit_keys_;
  DeviceArray<uint32_t> unit_starts_;
};

}  // namespace raydb::access::gpu
