#pragma once
// Running states of the aggregates of one query, one slot per group id. Sums over
// exact types accumulate in int128 (exact for any realistic input: 2^64 rows of
// int64 values cannot overflow it); sums over DOUBLE in an ExactDoubleSum (exact,
// rounded once at the end, so the result does not depend on thread or row order);
// COUNT in int64; MIN/MAX keep the extreme value (dictionary codes compare as their
// strings do; DOUBLE by double_order_key: MIN prefers -0.0, MAX +0.0, NaN above
// +inf). DISTINCT aggregates collect (group, value) pairs (DOUBLE values by
// same_value_bits: -0.0 as +0.0, one NaN) and are computed at the end; so do order
// statistics (median, quantiles, k-th values), selected per group by
// exec/core/order_statistics.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exec/core/key_encoder.h"
#include "exec/core/distinct_set.h"
#include "exec/core/exact_double_sum.h"
#include "exec/core/group_runs.h"
#include "exec/core/order_statistics/order_statistics.h"
#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// The selection library's spec for an SQL order statistic.
orderstat::RankSpec order_stat_rank_spec(const plan::OrderStatSpec& s);

class AggregateStates {
 public:
  AggregateStates(const std::vector<plan::AggregateExpr>* aggs, StringInterner* interner);

  void resize(size_t groups);
  // Adds n input rows for aggregate `a`; `arg` is null for COUNT(*). `runs` (optional):
  // the same rows ordered by gids, for few groups (group_runs.h).
  void update(size_t a, const uint32_t* gids, size_t n, const Vector* arg, const GroupRuns* runs = nullptr);
  // Folds `other`'s groups into this one: other's group src[i] becomes dst[i].
  void merge(const AggregateStates& other, const uint32_t* src, const uint32_t* dst, size_t count);
  // Sets the state of (non-DISTINCT) aggregate `a` from raw per-group arrays computed
  // elsewhere (the CUDA backend): rows counted, and the int128 sum (SUM/AVG) or the
  // extreme value (MIN/MAX) of an argument of `kind` (kInt, kCode or kHuge) and
  // `arg_type`. `sum` may be empty for COUNT. Groups are [0, count.size()). For a
  // DISTINCT aggregate the arrays are those of the distinct values.
  // `wraps` (may be empty): per group, how often the 128-bit sum wrapped (see State::wraps).
  void load(size_t a, std::vector<int64_t> count, std::vector<__int128> sum, VectorKind kind,
            const Dictionary* dict, const Type& arg_type, std::vector<int64_t> wraps = {});
  // The same for an argument of kind kDouble: `value` holds each group's rounded exact
  // SUM (SUM/AVG) or its extreme value (MIN/MAX).
  void load_doubles(size_t a, std::vector<int64_t> count, std::vector<double> value, const Type& arg_type);
  // Sets order statistic `a` (not DISTINCT) from a selection made elsewhere (the CUDA
  // backend, on the same keys the CPU collects: `kt` kInt64 for integers, DECIMAL and
  // DATE, kUInt64 for dictionary codes; the CPU's in-place selection over a stored
  // column, exec/cpu/column_order_stats.h: also kInt32 and kUInt32 codes): per group
  // [0, values.size()) the OrderStat of the aggregate's spec; `dict` for VARCHAR codes.
  void load_order_stat(size_t a, std::vector<orderstat::OrderStat> values, orderstat::KeyType kt,
                       const Dictionary* dict);
  // The results of aggregate `a` for the given groups, typed as AggregateExpr::type.
  Vector finalize(size_t a, const std::vector<uint32_t>& gids) const;
  // k of each group (indexed by group id, at least one entry) of a kth_smallest /
  // kth_largest whose k is an expression over the other aggregates (OrderStatSpec::
  // k_expr), evaluated as HAVING evaluates them over the groups `gids`; NULL becomes 0
  // (no k-th value, so NULL). Those aggregates must be loaded or updated first; the
  // CUDA backend calls it before its device selection.
  std::vector<int64_t> k_of_groups(const plan::Expr& k_expr, const std::vector<uint32_t>& gids) const;

 private:
  struct State {
    VectorKind kind = VectorKind::kInt;  // the argument's kind (set by the first update)
    bool kind_known = false;
    const Dictionary* dict = nullptr;
    Type arg_type;
    std::vector<int64_t> count;    // rows with a non-NULL argument (or all rows for COUNT(*))
    std::vector<__int128> sum;     // SUM/AVG over exact kinds; MIN/MAX over kInt/kCode/kHuge
    // 128-bit sums add modulo 2^128 and count their wrap-arounds here (allocated on the
    // first one), so the exact total is sum + wraps * 2^128 in any order of additions:
    // "numeric overflow" is raised when that total leaves int128, not when some order
    // of the threads' (or the GPU's) partial sums happens to pass the limit.
    std::vector<int64_t> wraps;
    std::vector<double> sum_d;     // MIN/MAX over DOUBLE; SUM/AVG results when loaded
    bool loaded_doubles = false;   // sum_d holds SUM/AVG results computed elsewhere
    bool loaded = false;           // set by load*: final per-group values (DISTINCT applied)
    std::vector<uint32_t> acc_slot;       // SUM/AVG over DOUBLE: 1 + index into accs, 0: none yet
    std::vector<ExactDoubleSum> accs;     // allocated per group on its first value
    std::vector<std::string> str;  // MIN/MAX over kString
    DistinctSet distinct;
    // Order statistics: every non-NULL argument with its group (integers and DECIMAL
    // as int64, dictionary codes, DOUBLE bits); selected at the end (order_statistics/).
    std::vector<uint32_t> os_gids;
    std::vector<uint64_t> os_values;
    std::vector<orderstat::OrderStat> os_loaded;  // load_order_stat's results (loaded set)
    orderstat::KeyType os_key_type = orderstat::KeyType::kInt64;
  };
  Vector finalize_order_stat(size_t a, const std::vector<uint32_t>& gids) const;
  Vector order_stat_vector(size_t a, orderstat::KeyType kt, const std::vector<uint32_t>& gids,
                           const std::function<const orderstat::OrderStat&(uint32_t)>& at) const;
  static ExactDoubleSum& acc(State& s, uint32_t g);
  static double rounded_sum(const State& s, uint32_t g);
  static void add_wrapping(State& s, uint32_t g, __int128 x);
  // SUM/AVG over kInt/kHuge: adds rows[0..m) of v to group g in registers.
  static void add_run(State& s, uint32_t g, const Vector& v, const uint32_t* rows, size_t m);

  const std::vector<plan::AggregateExpr>* aggs_;
  StringInterner* interner_;
  std::vector<State> states_;
  size_t size_ = 0;
};

}  // namespace raydb::exec
