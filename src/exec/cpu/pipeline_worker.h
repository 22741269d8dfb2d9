#pragma once
// What one thread of the CPU pipeline keeps across the morsels it runs: the batch's
// rows, scratch vectors, and its sink (thread-local groups and aggregate states, or
// projected chunks tagged with their batch number so scan order can be restored).
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "exec/core/aggregate_states.h"
#include "exec/core/group_runs.h"
#include "exec/core/group_table.h"
#include "exec/core/shared_subexpressions.h"
#include "exec/core/vector.h"
#include "exec/cpu/joined_rows.h"

namespace raydb::exec::cpu {

struct PipelineWorker {
  JoinedRows rows;
  std::vector<uint8_t> keep, valid;
  std::vector<uint32_t> sel, gids;
  std::vector<int64_t> words;
  std::unique_ptr<GroupTable> groups;
  std::unique_ptr<AggregateStates> states;
  GroupRuns runs;  // the batch's rows by group, when the groups are few
  std::optional<SharedSubexpressions> shared;  // repeated aggregation inputs, once per batch
  std::vector<std::pair<size_t, std::vector<Vector>>> chunks;  // (batch, projected columns)
  // Row counts for EXPLAIN ANALYZE: root rows streamed and passing its filters, and
  // rows left after each join step (in probe order). A few adds per batch.
  uint64_t scanned = 0, passed = 0;
  std::vector<uint64_t> joined;
};

}  // namespace raydb::exec::cpu
