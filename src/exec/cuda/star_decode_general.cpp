// The general steps of a star result's decode (star_decode_steps.h): a packed key word
// per group, a radix sort of the words, KeyEncoder's decode and AggregateStates. They
// handle every shape the star kernels produce (order statistics, wide sums, keys whose
// digits are not in GROUP BY order); the fast steps cover the common ones.
#include <algorithm>
#include <numeric>

#include "common/error.h"
#include "common/int_math.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/radix_order.h"
#include "exec/cuda/star_decode_steps.h"

namespace raydb::exec::cuda {

using plan::AggFunc;

namespace {

uint64_t key_range(const KeySpec& s) { return value_count(s.min, s.max); }

// Below this many groups HAVING runs only in the finisher, as before.
constexpr size_t kHavingFirstMinGroups = 65536;

}  // namespace

int64_t packed_key(const StarGroups& g, uint64_t id) {
  const StarPlan& sp = *g.sp;
  uint64_t w = 0;
  for (auto& d : g.dims) {
    if (d.group_keys.empty()) continue;
    const uint64_t local = uint64_t((*d.inv)[(id / d.stride) % d.codes]);
    for (size_t k = 0; k < d.group_keys.size(); k++) {
      const int key = d.group_keys[k];
      const uint64_t digit = (local / d.mult[k]) % key_range(sp.key_specs[size_t(key)]);
      w |= digit << sp.key_shifts[size_t(key)];
    }
  }
  for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
    const int key = sp.root_group_keys[k];
    const GroupRootDigit& root = g.roots[k];
    const int64_t v = root.value((id / root.stride) % root.radix);
    w |= uint64_t(v - sp.key_specs[size_t(key)].min) << sp.key_shifts[size_t(key)];
  }
  return int64_t(w);
}

std::vector<uint32_t> general_order(StarGroups& g, ResultTable& result, std::vector<Vector>& keys) {
  std::vector<uint32_t> order;
  GroupIds& present = *g.present;
  if (g.q->group_keys.empty()) {
    order = {0};
    if (present.empty()) {
      present.push_back(0);
      for (int f = 0; f < g.nfields; f++) (*g.fields)[size_t(f)].push_back(0);
    }
    return order;
  }
  KeyEncoder enc(g.sp->key_specs, result.interner.get());
  if (!enc.packed()) fail(ErrorKind::kInternal, "CUDA backend: group keys did not pack");
  std::vector<int64_t> packed(present.size(), 0);
  for (size_t i = 0; i < present.size(); i++) packed[i] = packed_key(g, present[i]);
  order = ascending_order(packed);  // radix: millions of groups (Q18's orders) sort in passes
  std::vector<int64_t> words;
  for (uint32_t i : order) words.push_back(packed[i]);
  keys = enc.decode(words.data(), order.size());
  return order;
}

// COUNT(*) states are loaded with the row counts too (sum unused).
void load_star_aggregates(const StarGroups& g, const std::vector<uint32_t>& order, AggregateStates& states) {
  const size_t n = order.size();
  const auto& aggs = g.sp->aggs;
  const auto& fields = *g.fields;
  for (size_t a = 0; a < aggs.size(); a++) {
    std::vector<int64_t> count(n);
    std::vector<__int128> sum;
    for (size_t i = 0; i < n; i++) count[i] = int64_t(fields[0][order[i]]);
    if (g.lo_field[a] >= 0) {
      sum.resize(n);
      for (size_t i = 0; i < n; i++) {
        const unsigned long long lo = fields[size_t(g.lo_field[a])][order[i]];
        if (g.hi_field[a] >= 0) {
          const unsigned long long hi = fields[size_t(g.hi_field[a])][order[i]];
          sum[i] = (__int128(int64_t(hi)) << 64) | __int128(lo);
        } else {
          sum[i] = __int128(int64_t(lo));
        }
      }
    }
    if (aggs[a].func == AggFunc::kCountStar) continue;  // count alone
    if (aggs[a].order_stat) {  // selected on the device (star_order_stats.cpp), per group id
      std::vector<orderstat::OrderStat> v(n);  // NULL where nothing was selected
      const bool ran = g.order_stats && a < g.order_stats->size() && !(*g.order_stats)[a].values.empty();
      for (size_t i = 0; i < n; i++)
        if (ran && order[i] < g.present->size()) v[i] = (*g.order_stats)[a].at(uint32_t((*g.present)[order[i]]), 0);
      states.load_order_stat(a, std::move(v), ran ? (*g.os_key_types)[a] : aggs[a].key_type, aggs[a].dict);
      continue;
    }
    states.load(a, std::move(count), std::move(sum), aggs[a].kind, aggs[a].dict, aggs[a].arg_type);
  }
  for (size_t a = 0; a < aggs.size(); a++) {
    if (aggs[a].func != AggFunc::kCountStar) continue;
    std::vector<int64_t> count(n);
    for (size_t i = 0; i < n; i++) count[i] = int64_t(fields[0][order[i]]);
    states.load(a, std::move(count), {}, VectorKind::kInt, nullptr, Type::bigint());
  }
}

std::vector<Vector> general_aggregates(const StarGroups& g, const std::vector<uint32_t>& order,
                                       StringInterner* interner) {
  const size_t n = order.size();
  AggregateStates states(&g.q->aggregates, interner);
  states.resize(n);
  load_star_aggregates(g, order, states);
  std::vector<uint32_t> gids(n);
  std::iota(gids.begin(), gids.end(), 0);
  std::vector<Vector> out;
  for (size_t a = 0; a < g.q->aggregates.size(); a++) out.push_back(states.finalize(a, gids));
  return out;
}

// Many groups and a HAVING over aggregates only (TPC-H Q18's subquery: 30 M orders at
// SF 20, about 1,200 with sum(l_quantity) > 300): HAVING is evaluated once over the
// groups as the kernels left them, and only those that pass stay present, so ordering,
// key decoding and the finisher (which evaluates HAVING again and keeps them all) see
// a few. Order statistics are selected per group id elsewhere, so their queries keep
// the plain path.
bool having_first(const StarGroups& g) { return having_first(g, g.present->size()); }

bool having_first(const StarGroups& g, size_t groups) {
  const plan::LogicalQuery& q = *g.q;
  if (!q.having || q.group_keys.empty() || groups < kHavingFirstMinGroups) return false;
  if (!plan::reads_only_aggregates(*q.having)) return false;
  return std::none_of(g.sp->aggs.begin(), g.sp->aggs.end(), [](auto& a) { return a.order_stat; });
}

void keep_passing_groups(StarGroups& g, const std::vector<Vector>& aggs) {
  const size_t n = g.present->size();
  std::vector<Vector> keys;
  EvalContext ctx;
  ctx.query = g.q;
  ctx.group_keys = &keys;
  ctx.aggregates = &aggs;
  ctx.n = n;
  std::vector<uint8_t> keep;
  evaluate_predicate(*g.q->having, ctx, keep);
  // Column by column: one sequential pass per array.
  auto compact = [&](auto& v) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (keep[i]) v[m++] = v[i];
    v.resize(m);
  };
  compact(*g.present);
  for (auto& f : *g.fields) compact(f);
}

}  // namespace raydb::exec::cuda
