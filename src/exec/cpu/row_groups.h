#pragma once
// The group of every row of the pipeline's root table that reached the aggregation,
// indexed by root row id: a byte per row (reached or not) and, when the query groups,
// its group id. Order statistics over a root column then select straight from the
// stored column (column_order_stats.h) instead of collecting a (group, value) pair
// per row. Only valid when every root row reaches the aggregation at most once (the
// joins are all unique), which the caller checks.
//
// Workers record the rows of their batches with their own group ids (each worker has
// its own GroupTable); once the groups are merged, to_global rewrites those ids with
// each worker's map, unit by unit, since each morsel ran on one worker.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace raydb::exec::cpu {

class RowGroups {
 public:
  // rows: the root table's row count; units: morsels of the pipeline; workers: threads.
  RowGroups(uint64_t rows, size_t units, int workers, bool grouped);

  // Unit `unit` runs on `worker` (called before its batches are recorded).
  void begin_unit(size_t unit, int worker) { unit_worker_[unit] = worker; }
  // n rows (root row ids) reached the aggregation on `worker`, with that worker's group
  // ids (null when ungrouped); `groups` bounds those ids.
  void record(int worker, const uint32_t* rows, const uint32_t* gids, size_t n, size_t groups);

  // Rewrites worker-local group ids as global ones: maps[w][local id] = global id (an
  // empty map: the ids are global already). Unit u covered the batches
  // batch_ids[u * morsel_batches ...] of batch_rows rows each.
  void to_global(const std::vector<std::vector<uint32_t>>& maps, const std::vector<uint32_t>& batch_ids,
                 size_t morsel_batches, size_t batch_rows, int threads);
  // Rows per global group (groups entries), by the same maps.
  std::vector<uint64_t> counts(size_t groups, const std::vector<std::vector<uint32_t>>& maps) const;

  uint64_t rows() const { return rows_; }
  // Nonzero for the rows that reached the aggregation; null when all of them did.
  const uint8_t* select() const;
  // Group id of each row that reached the aggregation; null when ungrouped.
  const uint32_t* gids() const { return gids_.get(); }
  // Bytes held (for the query's memory budget).
  static uint64_t bytes(uint64_t rows, bool grouped) { return rows * (grouped ? 5 : 1); }

 private:
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  uint64_t rows_;
  // calloc: untouched pages stay the kernel's shared zero page, so rows that never
  // reach the aggregation (skipped blocks, filtered out) cost no writes.
  std::unique_ptr<uint8_t[], Free> select_;
  std::unique_ptr<uint32_t[]> gids_;  // read only where select_ is set: left uninitialized
  std::vector<int> unit_worker_;
  std::vector<std::vector<uint64_t>> counts_;  // per worker, by its own group ids
};

}  // namespace raydb::exec::cpu
