#pragma once
// Dimension arrays kept on the device between statements (setting cuda_dimension_cache).
// A star query builds, per dimension, a key-indexed lookup array of group codes and its
// dense ranks (star_dimensions.cpp): a handful of launches and a wait for the counts
// before the fact pass can start. That work does not shrink with the fact rows, so on a
// shard of a replicated dimension it is a fixed cost per statement; a statement whose
// dimension has the same key column, filter ranges and group keys as an earlier one
// reuses the arrays instead. Columns are immutable per generation (a commit writes new
// ones), so the key holds the columns themselves: their addresses stay unique while an
// entry lives, and changed data is a different key.
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "gpu/device_buffer.h"
#include "storage/column.h"

namespace raydb::exec::cuda {

// One dimension's built arrays and the counts the fact pass reads (flags and dense
// only while it is built).
struct DimArrays {
  gpu::DeviceBuffer lookup, flags, dense, inv, translated;
  // The probe's 1- or 2-byte copy of the lookup (star_fact_pass.cpp add_probe), made on
  // first use; narrow_width 0 while none.
  gpu::DeviceBuffer narrow;
  int narrow_width = 0;
  uint64_t codes = 0, passed = 0;
  uint64_t bytes() const;
};

// Everything a dimension's arrays depend on: the columns read (held) and the numbers
// the plan derives (key range, filter ranges in stored values, group key radices).
struct DimKey {
  std::vector<ColumnPtr> columns;
  std::vector<uint64_t> words;
  bool operator==(const DimKey& o) const { return columns == o.columns && words == o.words; }
};

class DimensionCache {
 public:
  static DimensionCache& instance();
  // The arrays built for `k`, most recently used first; null when absent.
  std::shared_ptr<DimArrays> find(const DimKey& k);
  // Keeps `a` for `k`, dropping the least recently used entries beyond the limits.
  void put(DimKey k, std::shared_ptr<DimArrays> a);
  void clear();

  static constexpr size_t kMaxEntries = 64;
  static constexpr uint64_t kMaxBytes = uint64_t(256) << 20;

 private:
  std::mutex mutex_;
  std::list<std::pair<DimKey, std::shared_ptr<DimArrays>>> entries_;  // most recent first
};

}  // namespace raydb::exec::cuda
