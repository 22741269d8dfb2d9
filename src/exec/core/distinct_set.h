#pragma once
// The (group, value) pairs of a DISTINCT aggregate, deduplicated: a flat open-addressing
// set over an array of entries (a node-based std::unordered_set spent most of TPC-H
// Q16's time allocating, rehashing and freeing nodes). Values are one or two words
// (128-bit values, or DOUBLE bits / interned string ids in w0).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace raydb::exec {

struct DistinctEntry {
  uint32_t gid;
  int64_t w0, w1;
  bool operator==(const DistinctEntry& o) const { return gid == o.gid && w0 == o.w0 && w1 == o.w1; }
};

class DistinctSet {
 public:
  // Adds e unless an equal entry is present.
  void insert(const DistinctEntry& e);
  size_t size() const { return entries_.size(); }
  std::vector<DistinctEntry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<DistinctEntry>::const_iterator end() const { return entries_.end(); }

 private:
  void grow();
  std::vector<DistinctEntry> entries_;  // in first-inserted order
  std::vector<uint32_t> slots_;         // 0: empty; else entry index + 1
  uint64_t mask_ = 0;
};

}  // namespace raydb::exec
