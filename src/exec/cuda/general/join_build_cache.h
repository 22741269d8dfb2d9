#pragma once
// Join build sides kept on the device between statements (setting cuda_join_cache,
// default on). A general-path hash join whose build side is a whole stored table (no
// filter, no index scan, so no zone-map skipping either) keyed on plain integer
// columns builds the same table in every statement that joins it: TPC-H Q7, Q9 and Q12
// each build all 30 M orders at SF 20 (7 ms each on an H200) though their filters are
// elsewhere. Such a build depends only on its key columns, which are immutable per
// generation (a commit writes new ones), so the key holds the columns themselves, as
// DimensionCache does: their addresses stay unique while an entry lives, and changed
// data is a different key. The build rows of a whole table are its row ids in order,
// which scan_table gives again at no cost, so only the key values and the table are kept.
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "exec/cuda/general/hash_join.h"
#include "exec/cuda/general/tuples.h"
#include "storage/column.h"

namespace raydb::exec::cuda::general {

// The key columns and the rows built over (all of the table's).
struct JoinBuildKey {
  std::vector<ColumnPtr> columns;
  uint64_t rows = 0;
  bool operator==(const JoinBuildKey& o) const { return columns == o.columns && rows == o.rows; }
};

// What a build keeps: the key values the table's slots point at, and the table.
struct KeptJoinBuild {
  std::vector<Column128> keys;
  KeyColumns key_columns;
  std::shared_ptr<const HashJoinTable> table;
  uint64_t bytes() const;
};

class JoinBuildCache {
 public:
  static JoinBuildCache& instance();
  // The build kept for `k`, now the most recently used; null when absent.
  std::shared_ptr<const KeptJoinBuild> find(const JoinBuildKey& k);
  // Keeps `b` for `k` when it fits `limit` bytes in all, dropping the least recently
  // used entries to make room.
  void put(JoinBuildKey k, std::shared_ptr<const KeptJoinBuild> b, uint64_t limit);
  void clear();
  size_t size();
  uint64_t hits();  // finds that returned a build, since the process started (tests)
  // At most this much device memory, and at most 1/16 of the GPU memory budget, so
  // kept builds never take the room a query needs.
  static constexpr uint64_t kMaxBytes = uint64_t(4) << 30;

 private:
  std::mutex mutex_;
  uint64_t hits_ = 0;
  std::list<std::pair<JoinBuildKey, std::shared_ptr<const KeptJoinBuild>>> entries_;  // most recent first
};

}  // namespace raydb::exec::cuda::general
