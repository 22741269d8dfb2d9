#pragma once
// The sorted key column every sorted method shares: keys sorted with their row ids
// (and values) carried along, optionally compressed to one "unit" per distinct key.
// A lookup's result is always a contiguous run of sorted positions, so counting is a
// subtraction, a sum a sequential scan, and materializing a copy.
#include <span>
#include <vector>

#include "access/rt_index/key_index.h"

namespace raydb::access {

struct SortedKeys {
  std::vector<uint64_t> keys;   // sorted
  std::vector<RowId> rows;      // rows[i]: row id of keys[i] (stable: ties by row id)
  std::vector<int64_t> values;  // values of rows[i] (empty without values)
  // Units: one per distinct key when compressed, else one per position.
  bool compressed = false;
  std::vector<uint64_t> unit_keys;    // compressed only (else keys)
  std::vector<uint32_t> unit_starts;  // compressed only: size units + 1

  void build(std::span<const uint64_t> in_keys, std::span<const int64_t> in_values, bool compress);

  size_t units() const { return compressed ? unit_keys.size() : keys.size(); }
  uint64_t unit_key(size_t u) const { return compressed ? unit_keys[u] : keys[u]; }
  uint32_t unit_start(size_t u) const { return compressed ? unit_starts[u] : static_cast<uint32_t>(u); }
  // First unit >= u0 whose key exceeds hi (the linear scan of closest-hit + scan).
  size_t scan_past(size_t u0, uint64_t hi) const {
    size_t u = u0;
    const size_t n = units();
    while (u < n && unit_key(u) <= hi) ++u;
    return u;
  }
  int64_t sum(uint32_t begin, uint32_t end) const {
    int64_t s = 0;
    if (!values.empty())
      for (uint32_t i = begin; i < end; ++i) s += values[i];
    return s;
  }
  size_t memory_bytes() const {
    return keys.capacity() * 8 + rows.capacity() * 4 + values.capacity() * 8 + unit_keys.capacity() * 8 +
           unit_starts.capacity() * 4;
  }
};

// Sorts (key, original index) pairs; shared by index builds and sorted probes.
void sort_pairs(std::span<const uint64_t> keys, std::vector<uint64_t>& sorted_keys, std::vector<uint32_t>& perm);

}  // namespace raydb::access
