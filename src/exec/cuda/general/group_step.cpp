#include "exec/cuda/general/group_step.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "exec/core/aggregate_states.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/key_encoder.h"
#include "exec/core/radix_order.h"
#include "exec/core/result_finisher.h"
#include "exec/core/top_groups.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/group_aggregate.h"
#include "exec/cuda/general/group_ids.h"
#include "exec/cuda/general/group_kernels.h"
#include "exec/cuda/general/host_values.h"
#include "exec/cuda/general/top_group_kernels.h"
#include "exec/cuda/general/top_group_pick.h"

namespace raydb::exec::cuda::general {

using plan::AggFunc;

namespace {

// Groups from which packed keys are ordered on the device (below, the host's passes
// cost less than the launches and copies).
constexpr uint64_t kDeviceOrderGroups = 16384;

// The GROUP BY keys over the rows; DOUBLE keys as the CPU's key encoder: -0.0 and
// +0.0 one group, NaNs one group.
std::vector<Column128> group_key_values(GeneralQuery& g, const Tuples& cur) {
  std::vector<Column128> keys;
  for (auto& k : g.gp.group_keys) {
    keys.push_back(g.programs.eval(k, cur));
    if (k.kind == VectorKind::kDouble)
      launch_normalize_doubles(keys.back().values.get<__int128>(), keys.back().nl(), cur.n, g.s);
  }
  return keys;
}

GroupIds group_ids(GeneralQuery& g, const std::vector<Column128>& keys, uint64_t n) {
  const size_t G = keys.size();
  if (G > size_t(kMaxKeyColumns))
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: more than {} GROUP BY keys", kMaxKeyColumns);
  std::vector<GroupKeyColumn> kcols(G);
  for (size_t k = 0; k < G; k++) {
    kcols[k].values = keys[k].v();
    kcols[k].nulls = keys[k].nl();
    kcols[k].huge = g.gp.group_keys[k].kind == VectorKind::kHuge;
    kcols[k].nullable = may_be_null(*g.q.group_keys[k]);
  }
  if (g.settings.cuda_group() == CudaGroupAlgo::kSort) return sort_group_ids(kcols, n, g.s);
  // Rows in group order only for the aggregates that walk groups contiguously.
  bool need_order = false;
  for (auto& ga : g.gp.aggs)
    if (ga.has_arg && needs_group_order(ga.func, ga.distinct, ga.arg.kind)) need_order = true;
  return hash_group_ids(kcols, n, need_order, g.s);
}

// Group keys at the first row of each of `kept` groups (all groups when null); kept_dev:
// the same ids on the device when the device chose them. `on_device`: the gathered
// keys, still on the device (for device_group_order).
std::vector<Vector> group_key_vectors(GeneralQuery& g, const std::vector<Column128>& keys, const GroupIds& ids,
                                      uint64_t groups, const std::vector<uint32_t>* kept, const uint32_t* kept_dev,
                                      ResultTable& result, std::vector<Column128>& on_device) {
  const uint64_t m = kept ? kept->size() : groups;
  gpu::DeviceBuffer kept_first, kept_ids;
  const uint32_t* first = ids.first.get<uint32_t>();
  if (kept && m > 0) {
    // The kept groups' first rows, gathered on the device (4 bytes a kept group cross
    // the bus, not 4 bytes a group).
    if (!kept_dev) {
      kept_ids = gpu::DeviceBuffer(m * 4, "group keys");
      gpu::check_cuda(cudaMemcpyAsync(kept_ids.get(), kept->data(), m * 4, cudaMemcpyHostToDevice, g.s), "group keys");
      kept_dev = kept_ids.get<uint32_t>();
    }
    kept_first = gpu::DeviceBuffer(m * 4, "group keys");
    launch_gather_u32(first, kept_dev, m, kept_first.get<uint32_t>(), g.s);
    first = kept_first.get<uint32_t>();
  }
  std::vector<Vector> key_vectors;
  for (size_t k = 0; k < keys.size(); k++) {
    Column128 c;
    c.values = gpu::DeviceBuffer(std::max<uint64_t>(m, 1) * 16, "group keys");
    c.nulls = gpu::DeviceBuffer(std::max<uint64_t>(m, 1), "group keys");
    launch_gather_i128(keys[k].v(), keys[k].nl(), first, m, c.values.get<__int128>(), c.nulls.get<uint8_t>(), g.s);
    gpu::check_cuda(cudaStreamSynchronize(g.s), "group keys");
    key_vectors.push_back(host_vector(g.gp.group_keys[k], c, m, *result.interner, g.s));
    on_device.push_back(std::move(c));
  }
  return key_vectors;
}

// One aggregate's per-group results into `states`; k_per_group (indexed by group id)
// replaces the constant k of a k-th value. `pick`: only those groups' results, in its
// order (no order statistics then, device_pick_applies).
void load_aggregate(GeneralQuery& g, const Tuples& cur, const GroupLayout& layout, size_t a,
                    const int64_t* k_per_group, const GroupSubset* pick, AggregateStates& states) {
  const GeneralAgg& ga = g.gp.aggs[a];
  if (!ga.has_arg) {
    GroupAggregateResult r =
        aggregate_group_values(AggFunc::kCountStar, false, VectorKind::kInt, layout, nullptr, nullptr, g.s, pick);
    states.load(a, std::move(r.count), {}, VectorKind::kInt, nullptr, Type::bigint());
    return;
  }
  Column128 arg = g.programs.eval(ga.arg, cur);
  if (ga.func == AggFunc::kOrderStat) {
    GroupOrderStats os = order_stat_group_values(ga.order_stat, k_per_group, ga.distinct, ga.arg.kind, layout,
                                                 arg.v(), arg.nl(), g.s);
    states.load_order_stat(a, std::move(os.values), os.key_type, ga.arg.dict);
    return;
  }
  GroupAggregateResult r =
      aggregate_group_values(ga.func, ga.distinct, ga.arg.kind, layout, arg.v(), arg.nl(), g.s, pick);
  if (r.is_double)
    states.load_doubles(a, std::move(r.count), std::move(r.doubles), ga.arg.type);
  else
    states.load(a, std::move(r.count), std::move(r.value), ga.arg.kind, ga.arg.dict, ga.arg.type, std::move(r.wraps));
}

// Per aggregate: the rows in group order (each group's rows contiguous) where one
// needs them (needs_group_order), per group results loaded into the CPU's
// AggregateStates, which finalizes them as the CPU does.
// A k-th value whose k is an expression of other aggregates (count(*) / 2) waits for
// them: its k per group is evaluated like HAVING, then its ranks go to the device.
void load_aggregates(GeneralQuery& g, const Tuples& cur, const GroupLayout& layout, const GroupSubset* pick,
                     AggregateStates& states) {
  auto k_from_aggregates = [&](size_t a) {
    return g.gp.aggs[a].func == AggFunc::kOrderStat && g.q.aggregates[a].order_stat.k_expr != nullptr;
  };
  for (size_t a = 0; a < g.gp.aggs.size(); a++)
    if (!k_from_aggregates(a)) load_aggregate(g, cur, layout, a, nullptr, pick, states);
  std::vector<uint32_t> gids(g.gp.group_keys.empty() ? 1 : layout.groups);
  std::iota(gids.begin(), gids.end(), 0);
  for (size_t a = 0; a < g.gp.aggs.size(); a++) {
    if (!k_from_aggregates(a)) continue;
    const std::vector<int64_t> k = states.k_of_groups(*g.q.aggregates[a].order_stat.k_expr, gids);
    load_aggregate(g, cur, layout, a, k.data(), pick, states);
  }
}

// Packed integer keys of many groups ordered on the device: their words (as the
// encoder packs them) radix-sorted with the group positions, stably, so the order is
// ascending_order_rows' over the same words. The host's encode and LSD passes took
// 7.6 ms for TPC-H q20's 118 K (partkey, suppkey) groups at SF 20.
std::vector<uint32_t> device_group_order(GeneralQuery& g, const KeyEncoder& enc, const std::vector<Column128>& on_device,
                                         uint64_t groups) {
  std::vector<const __int128*> values;
  std::vector<long long> mins;
  for (size_t k = 0; k < on_device.size(); k++) {
    values.push_back(on_device[k].v());
    mins.push_back(enc.specs()[k].min);
  }
  gpu::DeviceBuffer words(groups * 8, "group order"), sorted(groups * 8, "group order");
  gpu::DeviceBuffer pos(groups * 4, "group order"), order_dev(groups * 4, "group order");
  launch_packed_words(values.data(), mins.data(), enc.shifts().data(), int(values.size()), groups,
                      words.get<unsigned long long>(), g.s);
  launch_iota(pos.get<uint32_t>(), groups, 0, g.s);
  sort_pairs_u64(words.get<unsigned long long>(), sorted.get<unsigned long long>(), pos.get<uint32_t>(),
                 order_dev.get<uint32_t>(), groups, g.s);
  std::vector<uint32_t> order(groups);
  gpu::check_cuda(cudaMemcpyAsync(order.data(), order_dev.get(), groups * 4, cudaMemcpyDeviceToHost, g.s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(g.s), "group order");
  return order;
}

// Group order: ascending encoded key words, which is the CPU's order whenever it
// aggregates into a direct array (packed keys); elsewhere its order is its hash
// table's, and results are compared as sets or through ORDER BY. Reorders the keys.
std::vector<uint32_t> group_order(GeneralQuery& g, std::vector<Vector>& key_vectors,
                                  const std::vector<Column128>& on_device, uint64_t groups, ResultTable& result) {
  std::vector<uint32_t> order(groups);
  std::iota(order.begin(), order.end(), 0);
  if (key_vectors.empty() || groups <= 1) return order;
  // One integer (or code) key without NULLs: the device numbered the groups in
  // ascending key order (group_ids.h), which is also the encoded words' order, so the
  // ids are the order (checked in one pass). Encoding and sorting 381 K keys on the
  // host took 12.7 ms of TPC-H Q22's key reduction at SF 20.
  const Vector& k0 = key_vectors[0];
  if (key_vectors.size() == 1 && (k0.kind == VectorKind::kInt || k0.kind == VectorKind::kCode) && !k0.has_nulls() &&
      std::is_sorted(k0.ints.begin(), k0.ints.begin() + long(groups)))
    return order;
  std::vector<KeySpec> specs;
  for (auto& k : g.q.group_keys) specs.push_back(group_key_spec(*k, g.q));
  KeyEncoder enc(std::move(specs), result.interner.get());
  // Packed plain integer keys (codes may be renumbered on the way to the host): sorted
  // on the device once there are enough groups to pay for the copies.
  bool device_words = enc.packed() && groups >= kDeviceOrderGroups && on_device.size() == key_vectors.size() &&
                      key_vectors.size() <= 8;
  for (size_t k = 0; device_words && k < key_vectors.size(); k++)
    device_words = g.gp.group_keys[k].kind == VectorKind::kInt && key_vectors[k].kind == VectorKind::kInt;
  if (device_words) {
    order = device_group_order(g, enc, on_device, groups);
  } else {
    std::vector<int64_t> words;
    enc.encode(key_vectors, groups, words);
    order = ascending_order_rows(words, size_t(enc.width()));  // radix passes (millions of groups)
  }
  for (auto& kv : key_vectors) kv = kv.select(order.data(), order.size());
  return order;
}

// ORDER BY an aggregate LIMIT k over many groups: the groups that can reach the result
// (exec/core/top_groups.h), decided before any group key leaves the device; nullopt
// when the query cannot be pruned so or pruning would keep most groups.
std::optional<std::vector<uint32_t>> top_groups(GeneralQuery& g, const AggregateStates& states, uint64_t groups) {
  std::vector<bool> read;
  if (groups < 2 || !prunable_top_groups(g.q, &read)) return std::nullopt;
  std::vector<uint32_t> all(groups);
  std::iota(all.begin(), all.end(), 0);
  std::vector<Vector> ranked(g.gp.aggs.size());
  for (size_t a = 0; a < ranked.size(); a++)
    if (read[a]) ranked[a] = states.finalize(a, all);
  return top_group_candidates(g.q, ranked, groups);
}

}  // namespace

void aggregate_rows(GeneralQuery& g, const Tuples& cur, ResultTable& result) {
  const uint64_t n = cur.n;
  const size_t G = g.gp.group_keys.size();
  std::vector<Column128> keys = group_key_values(g, cur);
  g.marks.mark("group key values");
  uint64_t groups = G == 0 ? 1 : 0;
  GroupIds ids;
  if (G > 0 && n > 0) {
    ids = group_ids(g, keys, n);
    groups = ids.groups;
  }
  g.marks.mark(fmt::format("group ids ({} groups)", groups));
  GroupLayout layout;
  layout.n = n;
  layout.groups = groups;
  layout.gid = G == 0 ? nullptr : ids.gid.get<uint32_t>();
  layout.order = G == 0 ? nullptr : ids.order.get<uint32_t>();
  AggregateStates states(&g.q.aggregates, result.interner.get());
  // The groups the finish reads (all, or the candidates of ORDER BY ... LIMIT), their
  // keys, and their order (ascending key words) as group ids. The device decides the
  // candidates where it can (top_group_pick.h): then only theirs come back, and the
  // states hold the candidates alone, in `kept`'s order.
  std::optional<GroupPick> pick;
  if (G > 0 && n > 0 && device_pick_applies(g)) pick = device_top_groups(g, cur, layout);
  std::optional<std::vector<uint32_t>> kept;
  if (pick) {
    g.marks.mark("top groups (device)");
    const GroupSubset subset = pick->subset();
    states.resize(subset.m);
    load_aggregates(g, cur, layout, &subset, states);
    g.marks.mark("aggregates");
    kept = pick->host_ids;
  } else {
    states.resize(groups);
    load_aggregates(g, cur, layout, nullptr, states);
    g.marks.mark("aggregates");
    kept = top_groups(g, states, groups);
    g.marks.mark("top groups");
  }
  std::vector<Column128> keys_on_device;
  std::vector<Vector> key_vectors = group_key_vectors(g, keys, ids, groups, kept ? &*kept : nullptr,
                                                      pick ? pick->ids.get<uint32_t>() : nullptr, result, keys_on_device);
  g.marks.mark("keys to host");
  const uint64_t m = kept ? kept->size() : groups;
  std::vector<uint32_t> order = group_order(g, key_vectors, keys_on_device, m, result);
  g.marks.mark("group order");
  if (kept && !pick)  // states over all groups: positions to group ids
    for (auto& o : order) o = (*kept)[o];
  std::vector<Vector> agg_vectors;
  for (size_t a = 0; a < g.gp.aggs.size(); a++) agg_vectors.push_back(states.finalize(a, order));
  g.marks.mark("finalize");
  size_t rows = m;
  std::vector<Vector> outputs = finish_aggregation(g.q, std::move(key_vectors), std::move(agg_vectors), rows);
  finish_rows(g.q, std::move(outputs), rows, result);
  g.marks.mark("finish");
}

}  // namespace raydb::exec::cuda::general
