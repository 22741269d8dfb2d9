// decode_star_groups (star_groups.h): HAVING first where it pays, then the groups in
// the CPU's order with their keys, the aggregates, and the shared finisher. The fast
// steps run where they apply (star_decode_steps.h), the general ones elsewhere and in
// DecodeMode::kGeneral, which the tests hold the fast steps to.
#include <numeric>

#include "common/error.h"
#include "common/timer.h"
#include "exec/core/result_finisher.h"
#include "exec/cuda/star_decode_steps.h"

namespace raydb::exec::cuda {

namespace {

std::vector<uint32_t> identity_order(size_t n) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

// The present indices in `sorted`'s low words (sorted_ids), or 0..n-1 when empty.
std::vector<uint32_t> order_of(const GroupIds& sorted, size_t n) {
  std::vector<uint32_t> order = identity_order(n);
  for (size_t i = 0; i < sorted.size(); i++) order[i] = uint32_t(sorted[i]);
  return order;
}

// Records each step's time since the previous one (DecodeSteps), when asked.
struct StepClock {
  DecodeSteps* steps;
  Timer timer;
  void mark(const char* name) {
    if (!steps) return;
    steps->ms.emplace_back(name, timer.elapsed_ms());
    timer.reset();
  }
};

// Keys and aggregates of groups ordered by their packed words: the general steps, or
// (fast, words below 2^32) the words built in parallel, sorted with their indices,
// and the keys decoded from the sorted words.
size_t packed_groups(StarGroups& g, ResultTable& result, std::vector<Vector>& keys, std::vector<Vector>& aggs,
                     bool fast, bool fast_aggs, StepClock& clock) {
  if (fast && !g.q->group_keys.empty() && g.R <= (uint64_t(1) << 32)) {
    const KeyEncoder enc(g.sp->key_specs, result.interner.get());
    if (!enc.packed()) fail(ErrorKind::kInternal, "CUDA backend: group keys did not pack");
    if (enc.packed_range() <= (uint64_t(1) << 32)) {
      const GroupIds words = packed_words(g);
      const GroupIds sorted = sorted_ids(words);
      clock.mark("order (packed words, fast)");
      keys = keys_from_words(g, words, sorted);
      clock.mark("keys from words");
      aggs = fast_aggs ? fast_aggregates(g, sorted) : general_aggregates(g, order_of(sorted, words.size()),
                                                                          result.interner.get());
      clock.mark(fast_aggs ? "aggregates (fast)" : "aggregates (states)");
      return words.size();
    }
  }
  const std::vector<uint32_t> order = general_order(g, result, keys);
  clock.mark("order + keys (packed words)");
  aggs = fast_aggs ? fast_aggregates(g, {}, &order) : general_aggregates(g, order, result.interner.get());
  clock.mark(fast_aggs ? "aggregates (fast)" : "aggregates (states)");
  return order.size();
}

}  // namespace

void decode_star_groups(StarGroups& g, ResultTable& result, DecodeMode mode, DecodeSteps* steps) {
  StepClock clock{steps, {}};
  const bool fast = mode == DecodeMode::kFast;
  const bool fast_aggs = fast && fast_aggregates_apply(g);
  // HAVING decided here passes every group kept, so (fast) the finisher skips it.
  bool having_done = false;
  if (having_first(g)) {
    if (fast && keep_by_terms(g)) {
      clock.mark("having first (terms)");
    } else {
      StringInterner interner;
      const std::vector<Vector> aggs =
          fast_aggs ? fast_aggregates(g, {}) : general_aggregates(g, identity_order(g.present->size()), &interner);
      keep_passing_groups(g, aggs);
      clock.mark("having first");
    }
    having_done = fast;
  }
  std::vector<Vector> keys, aggs;
  size_t n = 0;
  // Group ids ascend as the keys do: sort the ids (or find them sorted), keys from them.
  const bool by_ids = fast && !g.q->group_keys.empty() && g.R <= (uint64_t(1) << 32) && ids_follow_key_order(g);
  if (by_ids) {
    if (!KeyEncoder(g.sp->key_specs, result.interner.get()).packed())
      fail(ErrorKind::kInternal, "CUDA backend: group keys did not pack");
    const GroupIds sorted = sorted_ids(*g.present);
    clock.mark(sorted.empty() ? "ids (found sorted)" : "ids (radix sorted)");
    keys = keys_from_ids(g, sorted);
    clock.mark("keys from ids");
    n = g.present->size();
    aggs = fast_aggs ? fast_aggregates(g, sorted) : general_aggregates(g, order_of(sorted, n), result.interner.get());
    clock.mark(fast_aggs ? "aggregates (fast)" : "aggregates (states)");
  } else {
    n = packed_groups(g, result, keys, aggs, fast, fast_aggs, clock);
  }
  plan::LogicalQuery without_having;
  if (having_done) {
    without_having = *g.q;
    without_having.having = nullptr;
  }
  std::vector<Vector> outputs =
      finish_aggregation(having_done ? without_having : *g.q, std::move(keys), std::move(aggs), n);
  clock.mark("finish aggregation");
  finish_rows(*g.q, std::move(outputs), n, result);
  clock.mark("finish rows");
}

std::vector<int64_t> star_groups_k_per_group(const StarGroups& g, const plan::Expr& k_expr, uint64_t R) {
  const std::vector<uint32_t> order = identity_order(g.present->size());
  StringInterner interner;
  AggregateStates states(&g.q->aggregates, &interner);
  states.resize(order.size());
  load_star_aggregates(g, order, states);  // the order statistics not yet run load as NULL
  const std::vector<int64_t> k = states.k_of_groups(k_expr, order);
  std::vector<int64_t> out(std::max<uint64_t>(R, 1), 0);  // groups without rows: no k-th value
  for (size_t i = 0; i < order.size(); i++) out[(*g.present)[i]] = k[i];
  return out;
}

}  // namespace raydb::exec::cuda
