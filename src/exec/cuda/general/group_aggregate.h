#pragma once
// One aggregate of a GROUP BY (or global) aggregate query on the general CUDA path,
// over the per-row values of its argument program; per group results copied back for
// AggregateStates::load / load_doubles. Every kind the CPU aggregates:
//   COUNT, SUM/AVG (exact int128 sums; DOUBLE through ExactDoubleSum, so the answer is
//   the CPU's bit for bit), MIN/MAX (integers, codes, 128-bit values, DOUBLE by
//   double_order_key), and DISTINCT of any of them (the (group, value) pairs deduplicated
//   by sorting, then the plain aggregate over the survivors).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "exec/core/order_statistics/order_statistics.h"
#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec::cuda::general {

// The rows of an aggregation and their groups.
struct GroupLayout {
  uint64_t n = 0;                   // rows
  uint64_t groups = 1;
  const uint32_t* gid = nullptr;    // per row; null: all rows in group 0
  const uint32_t* order = nullptr;  // positions -> rows, each group's rows contiguous; null: identity
                                    // (needed only where needs_group_order)
};

// The groups whose results come back, in this order (the device's ORDER BY ... LIMIT
// candidates, top_group_pick.h): results then hold m entries, one per picked group,
// gathered on the device so only those words cross the bus.
struct GroupSubset {
  const uint32_t* ids = nullptr;       // device
  const uint32_t* host_ids = nullptr;  // the same ids on the host
  uint64_t m = 0;
};

struct GroupAggregateResult {
  std::vector<int64_t> count;     // non-NULL arguments per group
  std::vector<__int128> value;    // exact kinds: SUM or the extreme value
  std::vector<int64_t> wraps;     // 128-bit SUM: wrap-arounds of `value` (AggregateStates::load)
  std::vector<double> doubles;    // DOUBLE arguments (not COUNT): rounded SUM or the extreme
  bool is_double = false;
};

// Whether the aggregate visits each group's rows contiguously through GroupLayout::order
// (exact SUM/AVG over DOUBLE); the others need only gid (DISTINCT sorts its own pairs).
bool needs_group_order(plan::AggFunc func, bool distinct, VectorKind kind);

// `pick` (may be null): the groups whose results come back (all groups when null).
GroupAggregateResult aggregate_group_values(plan::AggFunc func, bool distinct, VectorKind kind, const GroupLayout& l,
                                            const __int128* values, const uint8_t* nulls, cudaStream_t s,
                                            const GroupSubset* pick = nullptr);

// An order statistic per group (exec/cuda/ops: the device radix select): the values'
// low words are the CPU's 64-bit keys (int64 values, DOUBLE bits, dictionary codes),
// DISTINCT goes through the deduplicated (group, value) pairs, so the selected keys
// are the CPU's. k_per_group (by group id; may be null) replaces the spec's constant k
// of a k-th value. For AggregateStates::load_order_stat.
struct GroupOrderStats {
  std::vector<orderstat::OrderStat> values;  // per group
  orderstat::KeyType key_type = orderstat::KeyType::kInt64;
};
GroupOrderStats order_stat_group_values(const plan::OrderStatSpec& spec, const int64_t* k_per_group, bool distinct,
                                        VectorKind kind, const GroupLayout& l, const __int128* values, const uint8_t* nulls,
                                        cudaStream_t s);

}  // namespace raydb::exec::cuda::general
