// A star query's results (star_run.h): accumulators and each dimension's group codes
// back on the host, then decoded into the CPU's packed key words in the CPU's
// direct-aggregation order and finished by the CPU's AggregateStates and finisher.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "common/int_math.h"
#include "exec/core/aggregate_states.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/radix_order.h"
#include "exec/core/result_finisher.h"
#include "exec/cuda/group_keep.h"
#include "exec/cuda/star_run.h"
#include "gpu/stream_wait.h"

namespace raydb::exec::cuda {

using plan::AggFunc;

namespace {

uint64_t key_range(const KeySpec& s) { return value_count(s.min, s.max); }

// Few groups: every accumulator comes back and the host keeps the groups with rows.
// Staging holds the accumulators and the filtered-row count after them (run_fact_pass
// puts it there on the device too: one copy instead of two, each ~4 us of the device
// time), then the inverse maps.
char* copy_all_groups(StarRun& r, const u64* base, uint64_t inv_words) {
  const uint64_t bytes = r.R * uint64_t(r.nfields) * 8 + 8;
  r.ctx.host.ensure(bytes + inv_words * 4 + 64);
  gpu::check_cuda(cudaMemcpyAsync(r.ctx.host.get(), base, bytes, cudaMemcpyDeviceToHost, r.ctx.stream), "copy");
  return r.ctx.host.get<char>() + bytes;
}

struct Compaction {
  gpu::DeviceBuffer out, ids, n, field_ptrs;
};

// Many groups: the groups with rows are compacted on the device first. Staging then
// holds the inverse maps at offset 64 (the field pointers are staged below them).
char* compact_groups(StarRun& r, const u64* base, uint64_t inv_words, Compaction& c) {
  cudaStream_t s = r.ctx.stream;
  const uint64_t R = r.R;
  const int nfields = r.nfields;
  c.out = gpu::DeviceBuffer(R * uint64_t(nfields) * 8, "compacted groups");
  c.ids = gpu::DeviceBuffer(R * 8, "compacted groups");
  c.n = gpu::DeviceBuffer(8, "compacted groups");
  c.field_ptrs = gpu::DeviceBuffer(uint64_t(nfields) * 8, "compacted groups");
  std::vector<const u64*> ptrs(static_cast<size_t>(nfields));
  for (int f = 0; f < nfields; f++) ptrs[size_t(f)] = base + uint64_t(f) * R;
  r.ctx.host.ensure(std::max<uint64_t>(inv_words * 4 + 64, uint64_t(nfields) * 8 + 8));
  std::memcpy(r.ctx.host.get(), ptrs.data(), size_t(nfields) * 8);
  gpu::check_cuda(
      cudaMemcpyAsync(c.field_ptrs.get(), r.ctx.host.get(), uint64_t(nfields) * 8, cudaMemcpyHostToDevice, s), "copy");
  gpu::check_cuda(cudaMemsetAsync(c.n.get(), 0, 8, s), "cudaMemset");
  // HAVING's terms decided here: only the groups that may pass come back (TPC-H Q18).
  DevGroupKeep keep;
  if (std::none_of(r.sp.aggs.begin(), r.sp.aggs.end(), [](auto& a) { return a.order_stat; }))
    keep = compile_group_keep(r.q, r.sp, r.lo_field, r.hi_field);
  launch_compact(c.field_ptrs.get<const u64* const>(), nfields, R, R, keep, c.out.get<u64>(), c.ids.get<u64>(),
                 c.n.get<u64>(), s);
  gpu::check_cuda(cudaStreamSynchronize(s), "compaction");  // ptrs must be read before host staging is reused
  return r.ctx.host.get<char>() + 64;
}

// Each dimension's dense rank -> local code map, for decoding.
void copy_inverse_maps(StarRun& r, char* inv_host) {
  uint64_t off = 0;
  for (auto& d : r.dims) {
    if (d.codes)
      gpu::check_cuda(
          cudaMemcpyAsync(inv_host + off * 4, d.arrays->inv.get(), d.codes * 4, cudaMemcpyDeviceToHost, r.ctx.stream), "copy");
    off += d.codes;
  }
}

// The compacted groups to the host (after the inverse maps, moved out of the way
// before the staging buffer grows). Returns where the inverse maps now are.
char* read_compacted(StarRun& r, const Compaction& c, char* inv_host, uint64_t inv_words) {
  cudaStream_t s = r.ctx.stream;
  StarContext& ctx = r.ctx;
  const int nfields = r.nfields;
  u64 n = 0;
  gpu::check_cuda(cudaMemcpyAsync(ctx.host.get(), c.n.get(), 8, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "compaction");
  n = ctx.host.get<u64>()[0];
  std::vector<char> inv_copy(inv_host, inv_host + inv_words * 4);
  ctx.host.ensure(n * uint64_t(nfields + 1) * 8 + inv_words * 4 + 64);
  std::memcpy(ctx.host.get<char>() + n * uint64_t(nfields + 1) * 8, inv_copy.data(), inv_copy.size());
  inv_host = ctx.host.get<char>() + n * uint64_t(nfields + 1) * 8;
  for (int f = 0; f < nfields; f++)
    if (n)
      gpu::check_cuda(cudaMemcpyAsync(ctx.host.get<u64>() + uint64_t(f) * n, c.out.get<u64>() + uint64_t(f) * r.R,
                                      n * 8, cudaMemcpyDeviceToHost, s),
                      "copy");
  if (n)
    gpu::check_cuda(
        cudaMemcpyAsync(ctx.host.get<u64>() + uint64_t(nfields) * n, c.ids.get(), n * 8, cudaMemcpyDeviceToHost, s),
        "copy");
  gpu::check_cuda(cudaEventRecord(ctx.stop, s), "cudaEventRecord");
  gpu::check_cuda(cudaStreamSynchronize(s), "result copy");
  r.fields.assign(size_t(nfields), {});
  const u64* h = ctx.host.get<u64>();
  for (size_t i = 0; i < n; i++) r.present.push_back(h[uint64_t(nfields) * n + i]);
  for (int f = 0; f < nfields; f++) r.fields[size_t(f)].assign(h + uint64_t(f) * n, h + uint64_t(f) * n + n);
  return inv_host;
}

void read_all(StarRun& r) {
  gpu::check_cuda(cudaEventRecord(r.ctx.stop, r.ctx.stream), "cudaEventRecord");
  gpu::wait_cancellable(r.ctx.stream, "fact kernel");
  r.fields.assign(size_t(r.nfields), {});
  const u64* h = r.ctx.host.get<u64>();
  for (uint64_t g = 0; g < r.R; g++) {
    if (h[g] == 0) continue;
    r.present.push_back(g);
    for (int f = 0; f < r.nfields; f++) r.fields[size_t(f)].push_back(h[uint64_t(f) * r.R + g]);
  }
}

std::string phase_times(const StarRun& r, const StarParams& p) {
  const StarContext& ctx = r.ctx;
  float d = 0, gap = 0, k = 0, rest = 0;
  cudaEventElapsedTime(&d, ctx.start, ctx.dims_done);
  cudaEventElapsedTime(&gap, ctx.dims_done, ctx.fact_start);
  cudaEventElapsedTime(&k, ctx.fact_start, ctx.fact_done);
  cudaEventElapsedTime(&rest, ctx.fact_done, ctx.stop);
  return fmt::format("dims {:.3f} ms, sync+setup {:.3f} ms, fact kernel {:.3f} ms (mode {}, {} groups), result {:.3f} ms, "
                     "total {:.3f} ms; host: params {:.3f} ms (ranges {:.3f}, sets {:.3f}, set uploads {:.3f}), "
                     "enqueue {:.3f} ms",
                     d, gap, k, p.mode, r.R, rest, r.device_ms, r.params_host_ms, r.ranges_host_ms, r.sets_host_ms,
                     r.set_uploads_host_ms, r.enqueue_host_ms);
}

// Group ids -> packed key words (the CPU's KeyEncoder layout).
int64_t packed_key(const StarRun& r, uint64_t g) {
  const StarPlan& sp = r.sp;
  uint64_t w = 0;
  for (auto& d : r.dims) {
    if (d.dim->group_keys.empty()) continue;
    const uint64_t local = uint64_t(d.inv_host[(g / d.stride) % d.codes]);
    for (size_t k = 0; k < d.dim->group_keys.size(); k++) {
      const int key = d.dim->group_keys[k];
      const uint64_t digit = (local / d.mult[k]) % key_range(sp.key_specs[size_t(key)]);
      w |= digit << sp.key_shifts[size_t(key)];
    }
  }
  for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
    const int key = sp.root_group_keys[k];
    const uint64_t digit = (g / r.stride_root[k]) % r.radix_root[k];
    const int64_t v = r.fact[size_t(sp.root_group_cols[k])]->value_of_stored(digit);
    w |= uint64_t(v - sp.key_specs[size_t(key)].min) << sp.key_shifts[size_t(key)];
  }
  return int64_t(w);
}

// The present groups in the CPU's direct-aggregation order (ascending packed word),
// their keys decoded; without GROUP BY one group, present even without rows.
std::vector<uint32_t> order_groups(StarRun& r, ResultTable& result, std::vector<Vector>& key_vectors) {
  std::vector<uint32_t> order;
  if (r.q.group_keys.empty()) {
    order = {0};
    if (r.present.empty()) {
      r.present.push_back(0);
      for (int f = 0; f < r.nfields; f++) r.fields[size_t(f)].push_back(0);
    }
    return order;
  }
  KeyEncoder enc(r.sp.key_specs, result.interner.get());
  if (!enc.packed()) fail(ErrorKind::kInternal, "CUDA backend: group keys did not pack");
  std::vector<int64_t> packed(r.present.size(), 0);
  for (size_t i = 0; i < r.present.size(); i++) packed[i] = packed_key(r, r.present[i]);
  order = ascending_order(packed);  // radix: millions of groups (Q18's orders) sort in passes
  std::vector<int64_t> words;
  for (uint32_t i : order) words.push_back(packed[i]);
  key_vectors = enc.decode(words.data(), order.size());
  return order;
}

// Counts and (low word + high word) sums per group, in `order`, as AggregateStates
// takes them; COUNT(*) states are loaded with the row counts too (sum unused).
void load_star_aggregates(const StarRun& r, const std::vector<uint32_t>& order, AggregateStates& states) {
  const size_t n = order.size();
  const auto& aggs = r.sp.aggs;
  for (size_t a = 0; a < aggs.size(); a++) {
    std::vector<int64_t> count(n);
    std::vector<__int128> sum;
    for (size_t i = 0; i < n; i++) count[i] = int64_t(r.fields[0][order[i]]);
    if (r.lo_field[a] >= 0) {
      sum.resize(n);
      for (size_t i = 0; i < n; i++) {
        const u64 lo = r.fields[size_t(r.lo_field[a])][order[i]];
        if (r.hi_field[a] >= 0) {
          const u64 hi = r.fields[size_t(r.hi_field[a])][order[i]];
          sum[i] = (__int128(int64_t(hi)) << 64) | __int128(lo);
        } else {
          sum[i] = __int128(int64_t(lo));
        }
      }
    }
    if (aggs[a].func == AggFunc::kCountStar) continue;  // count alone
    if (aggs[a].order_stat) {  // selected on the device (star_order_stats.cpp), per group id
      std::vector<orderstat::OrderStat> v(n);  // NULL where nothing was selected
      const bool ran = a < r.order_stats.size() && !r.order_stats[a].values.empty();
      for (size_t i = 0; i < n; i++)
        if (ran && order[i] < r.present.size()) v[i] = r.order_stats[a].at(uint32_t(r.present[order[i]]), 0);
      states.load_order_stat(a, std::move(v), ran ? r.os_key_types[a] : aggs[a].key_type, aggs[a].dict);
      continue;
    }
    states.load(a, std::move(count), std::move(sum), aggs[a].kind, aggs[a].dict, aggs[a].arg_type);
  }
  for (size_t a = 0; a < aggs.size(); a++) {
    if (aggs[a].func != AggFunc::kCountStar) continue;
    std::vector<int64_t> count(n);
    for (size_t i = 0; i < n; i++) count[i] = int64_t(r.fields[0][order[i]]);
    states.load(a, std::move(count), {}, VectorKind::kInt, nullptr, Type::bigint());
  }
}

// Whether e, a post-aggregation expression, reads aggregates and constants only.
bool reads_only_aggregates(const plan::Expr& e) {
  using plan::ExprKind;
  if (e.kind == ExprKind::kGroupRef || e.kind == ExprKind::kOutputRef || e.kind == ExprKind::kColumnRef ||
      e.kind == ExprKind::kWindowRef)
    return false;
  for (auto& c : e.children)
    if (!reads_only_aggregates(*c)) return false;
  return true;
}

// Below this many groups HAVING runs only in the finisher, as before.
constexpr size_t kHavingFirstMinGroups = 65536;

// Many groups and a HAVING over aggregates only (TPC-H Q18's subquery: 30 M orders at
// SF 20, about 1,200 with sum(l_quantity) > 300): HAVING is evaluated once over the
// groups as the kernels left them, with the CPU's evaluator, and only those that pass
// stay present, so ordering, key decoding and the finisher (which evaluates HAVING
// again and keeps them all) see a few. Order statistics are selected per group id
// elsewhere, so their queries keep the plain path.
void keep_having_groups(StarRun& r) {
  const plan::LogicalQuery& q = r.q;
  if (!q.having || q.group_keys.empty() || r.present.size() < kHavingFirstMinGroups) return;
  if (!reads_only_aggregates(*q.having)) return;
  for (auto& a : r.sp.aggs)
    if (a.order_stat) return;
  const size_t n = r.present.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  StringInterner interner;
  AggregateStates states(&q.aggregates, &interner);
  states.resize(n);
  load_star_aggregates(r, order, states);
  std::vector<Vector> aggs, keys;
  for (size_t a = 0; a < q.aggregates.size(); a++) aggs.push_back(states.finalize(a, order));
  EvalContext ctx;
  ctx.query = &q;
  ctx.group_keys = &keys;
  ctx.aggregates = &aggs;
  ctx.n = n;
  std::vector<uint8_t> keep;
  evaluate_predicate(*q.having, ctx, keep);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!keep[i]) continue;
    r.present[m] = r.present[i];
    for (auto& f : r.fields) f[m] = f[i];
    m++;
  }
  r.present.resize(m);
  for (auto& f : r.fields) f.resize(m);
}

}  // namespace

void copy_groups_back(StarRun& r, const StarParams& p, const gpu::DeviceBuffer& acc) {
  const u64* base = acc.get<u64>();
  uint64_t inv_words = 0;
  for (auto& d : r.dims) inv_words += d.codes;
  Compaction c;
  const bool all = r.R <= kCopyAllGroups;
  // The filtered-row count (StarParams::filtered, the word after the accumulators)
  // comes back with them when they all do; before compaction, on its own.
  if (!all)
    gpu::check_cuda(cudaMemcpyAsync(r.ctx.counter.get(), p.filtered, 8, cudaMemcpyDeviceToHost, r.ctx.stream),
                    "cudaMemcpy");
  char* inv_host = all ? copy_all_groups(r, base, inv_words) : compact_groups(r, base, inv_words, c);
  const u64* filtered = all ? reinterpret_cast<const u64*>(inv_host) - 1 : r.ctx.counter.get<u64>();
  copy_inverse_maps(r, inv_host);
  if (!all)
    inv_host = read_compacted(r, c, inv_host, inv_words);
  else
    read_all(r);
  uint64_t off = 0;
  for (auto& d : r.dims) {
    d.inv_host.assign(reinterpret_cast<int32_t*>(inv_host) + off, reinterpret_cast<int32_t*>(inv_host) + off + d.codes);
    off += d.codes;
  }
  gpu::check_cuda(cudaEventElapsedTime(&r.device_ms, r.ctx.start, r.ctx.stop), "cudaEventElapsedTime");
  r.fact_filtered = *filtered;
  r.phases = phase_times(r, p);
  if (r.settings.cuda_profile()) std::fprintf(stderr, "cuda profile: %s\n", r.phases.c_str());
}

// No row can pass: only the events; no groups (one empty group without GROUP BY).
void finish_without_rows(StarRun& r) {
  gpu::check_cuda(cudaEventRecord(r.ctx.stop, r.ctx.stream), "cudaEventRecord");
  gpu::wait_cancellable(r.ctx.stream, "query");
  gpu::check_cuda(cudaEventElapsedTime(&r.device_ms, r.ctx.start, r.ctx.stop), "cudaEventElapsedTime");
  r.present.clear();
  r.fields.assign(size_t(r.nfields), {});
}

std::vector<int64_t> star_k_per_group(const StarRun& r, const plan::Expr& k_expr) {
  std::vector<uint32_t> order(r.present.size());
  std::iota(order.begin(), order.end(), 0);
  StringInterner interner;
  AggregateStates states(&r.q.aggregates, &interner);
  states.resize(order.size());
  load_star_aggregates(r, order, states);  // the order statistics not yet run load as NULL
  const std::vector<int64_t> k = states.k_of_groups(k_expr, order);
  std::vector<int64_t> out(std::max<uint64_t>(r.R, 1), 0);  // groups without rows: no k-th value
  for (size_t i = 0; i < order.size(); i++) out[r.present[i]] = k[i];
  return out;
}

void decode_star_result(StarRun& r, ResultTable& result) {
  keep_having_groups(r);
  std::vector<Vector> key_vectors, agg_vectors;
  const std::vector<uint32_t> order = order_groups(r, result, key_vectors);
  size_t n = order.size();  // finish_aggregation may change it (HAVING)
  AggregateStates states(&r.q.aggregates, result.interner.get());
  states.resize(n);
  load_star_aggregates(r, order, states);
  std::vector<uint32_t> gids(n);
  std::iota(gids.begin(), gids.end(), 0);
  for (size_t a = 0; a < r.q.aggregates.size(); a++) agg_vectors.push_back(states.finalize(a, gids));
  std::vector<Vector> outputs = finish_aggregation(r.q, std::move(key_vectors), std::move(agg_vectors), n);
  finish_rows(r.q, std::move(outputs), n, result);
}

}  // namespace raydb::exec::cuda
