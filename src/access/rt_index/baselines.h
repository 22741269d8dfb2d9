#pragma once
// The non-RT baselines in the same API, so the harness and the planner compare like
// with like: a sorted array with binary search and an open-addressing hash table
// (CPU versions; the CUDA backend adds CUB/GPU-hash twins).
#include "access/rt_index/run_index.h"

namespace raydb::access {

struct BaselineOptions {
  bool sorted_probes = false;
};

class SortedArrayIndex final : public RunIndex {
 public:
  SortedArrayIndex(std::span<const uint64_t> keys, std::span<const int64_t> values, BaselineOptions options = {});
  std::string name() const override { return "sorted_array"; }

 protected:
  Run find_run(const KeyRange& q) const override;
};

// Distinct keys in a linear-probing table of unit ids (load factor <= 1/2); a unit's
// rows are a run of the sorted column. Point lookups only.
class HashIndex final : public RunIndex {
 public:
  HashIndex(std::span<const uint64_t> keys, std::span<const int64_t> values, BaselineOptions options = {});
  std::string name() const override { return "hash"; }
  bool supports_ranges() const override { return false; }

 protected:
  Run find_run(const KeyRange& q) const override;

 private:
  std::vector<uint32_t> slots_;
  uint64_t mask_ = 0;
};

}  // namespace raydb::access
