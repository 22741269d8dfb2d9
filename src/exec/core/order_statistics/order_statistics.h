#pragma once
// Order statistics of a column, per group: the entry point executors call for
// median(x), quantile_disc/quantile_cont(x, q), percentile_disc/percentile_cont(q)
// WITHIN GROUP (ORDER BY x), kth_smallest(x, k) and kth_largest(x, k). Several specs
// at once share their passes (median and quantile_cont need two ranks: both are
// selected in the same passes as every other spec's).
//
//   ColumnInput in{KeyType::kInt32, col, n, where_mask, nulls, group_ids, groups};
//   OrderStats r = order_statistics(in, {RankSpec::median(), RankSpec::disc(Quantile::of(0.9))});
//   r.at(g, 0).is_null ? NULL : as_double(in.type, r.at(g, 0))     // median: DOUBLE
//   int_from_key(in.type, r.at(g, 1).lo_key)                        // quantile_disc: the type of x
#include <cstdint>
#include <vector>

#include "exec/core/order_statistics/column_input.h"
#include "exec/core/order_statistics/interpolate.h"
#include "exec/core/order_statistics/rank_spec.h"
#include "exec/core/order_statistics/selection.h"

namespace raydb::exec::orderstat {

// One result: NULL, or the keys at ranks lo and hi with hi's weight d (kCont; for the
// other kinds lo_key == hi_key and d == 0).
struct OrderStat {
  bool is_null = true;
  bool interpolated = false;  // the two ranks differ (only kCont)
  uint64_t lo_key = 0, hi_key = 0;
  double d = 0;
};

struct OrderStats {
  uint32_t groups = 0, specs = 0;
  std::vector<uint64_t> counts;  // counting rows per group
  std::vector<OrderStat> values;  // groups * specs
  const OrderStat& at(uint32_t g, uint32_t spec) const { return values[size_t(g) * specs + spec]; }
};

// Expands specs into ranks per group (ranks_for) and selects them all together.
OrderStats order_statistics(const ColumnInput& in, const std::vector<RankSpec>& specs, const SelectOptions& options = {});
// The same with the group counts already known (e.g. from a COUNT the executor has).
OrderStats order_statistics(const ColumnInput& in, const std::vector<RankSpec>& specs, std::vector<uint64_t> counts,
                            const SelectOptions& options = {});

// Result values (not for NULL results):
// DOUBLE results: quantile_cont/median of INTEGER, BIGINT, DOUBLE (and disc of DOUBLE).
double as_double(KeyType t, const OrderStat& s);
// Scaled-integer results: quantile_cont of DECIMAL keeps the DECIMAL type.
int64_t as_scaled(KeyType t, const OrderStat& s);
// quantile_cont of DATE (days) is a TIMESTAMP: microseconds.
int64_t as_timestamp_micros_from_days(const OrderStat& s);

// The ranks order_statistics selects: per group 2 * specs.size() (lo, hi), hi as
// kNoRank when equal to lo. Shared with the CUDA side.
std::vector<uint64_t> ranks_for_specs(const std::vector<RankSpec>& specs, const std::vector<uint64_t>& counts,
                                      std::vector<RankPair>* pairs);
// Fills the results from the selected keys (layout of ranks_for_specs).
OrderStats assemble(const std::vector<RankSpec>& specs, std::vector<uint64_t> counts,
                    const std::vector<RankPair>& pairs, const std::vector<uint64_t>& keys);

}  // namespace raydb::exec::orderstat
