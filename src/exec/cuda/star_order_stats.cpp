// Order statistics on the star path (median, quantiles, k-th values of a fact
// column per group). The fused pass has counted their rows; a second pass of the fact
// kernel (mode 3: the same filters and probes) writes each fact row's group id and
// whether it passed; each aggregate's column becomes the CPU's int64 keys (value_of,
// exact) and the device selection of exec/cuda/ops (radix select per group, no host
// round trip between passes) picks the ranks. The keys and ranks are those the CPU
// backend uses, so the answers are the same bit for bit. A k given by an expression of
// other aggregates is evaluated per group from the fused pass's results first.
#include "common/error.h"
#include "common/timer.h"
#include "exec/core/aggregate_states.h"
#include "exec/cuda/ops/order_statistics_gpu.h"
#include "exec/cuda/star_run.h"

namespace raydb::exec::cuda {

void run_order_statistics(StarRun& r, const StarParams& fused) {
  const auto& aggs = r.sp.aggs;
  bool any = false;
  for (auto& a : aggs) any = any || a.order_stat;
  if (!any) return;
  // Their second pass reads the whole fact table on the device: streamed plans are
  // refused when planned (stream_choice.cpp).
  if (r.stream) fail(ErrorKind::kInternal, "order statistics in a streamed star pass");
  Timer timer;
  r.order_stats.assign(aggs.size(), {});
  r.os_key_types.assign(aggs.size(), orderstat::KeyType::kInt64);
  const uint64_t n = r.sp.root_rows;
  cudaStream_t s = r.ctx.stream;
  gpu::DeviceBuffer select(std::max<uint64_t>(n, 1), "order statistics: rows passed");
  gpu::DeviceBuffer gids(std::max<uint64_t>(n, 1) * 4, "order statistics: group ids");
  gpu::DeviceBuffer keys(std::max<uint64_t>(n, 1) * 8, "order statistics: keys");
  gpu::DeviceBuffer counter(8, "order statistics: counter");
  StarParams p = fused;
  p.mode = 3;
  p.count_only = 0;
  p.os_select = select.get<unsigned char>();
  p.os_gids = gids.get<uint32_t>();
  p.filtered = counter.get<unsigned long long>();
  // Rows of skipped blocks are written by no launch: they read as not passed.
  if (r.blocks) {
    gpu::check_cuda(cudaMemsetAsync(select.get(), 0, select.bytes(), s), "cudaMemset");
    gpu::check_cuda(cudaMemsetAsync(gids.get(), 0, gids.bytes(), s), "cudaMemset");
  }
  if (!r.nothing) launch_fact_kernel(r, p);
  gpu::check_cuda(cudaGetLastError(), "order statistics pass");
  orderstat::ColumnInput in;
  in.n = n;
  in.select = select.get<uint8_t>();
  in.group_ids = gids.get<uint32_t>();
  in.groups = uint32_t(r.R);
  const auto& q_aggs = r.q.aggregates;
  for (size_t a = 0; a < aggs.size(); a++) {
    if (!aggs[a].order_stat) continue;
    // 32-bit keys when the column's values fit: the selection's passes read half the
    // bytes, and int32 and int64 keys of equal values select and interpolate alike.
    const DeviceColumn& col = *r.fact[size_t(aggs[a].os_col)];
    const ColumnStats& st = col.owner->stats();
    const bool narrow = aggs[a].key_type == orderstat::KeyType::kInt64 && st.min >= INT32_MIN && st.max <= INT32_MAX;
    launch_order_keys(col.dev, n, keys.get(), narrow ? 4 : 8, s);
    gpu::check_cuda(cudaStreamSynchronize(s), "order statistics keys");
    in.type = narrow ? orderstat::KeyType::kInt32 : aggs[a].key_type;
    r.os_key_types[a] = in.type;
    // The statistics (exact min/max of the stored integers or codes, checked against
    // the data when the column is first read) bound every key: the selection skips
    // the leading key bits they share.
    in.key_lo = 0;
    in.key_hi = ~uint64_t(0);
    if (st.min <= st.max) {
      if (narrow) {
        in.key_lo = orderstat::int32_key(int32_t(st.min));
        in.key_hi = orderstat::int32_key(int32_t(st.max));
      } else if (in.type == orderstat::KeyType::kInt64) {
        in.key_lo = orderstat::int64_key(st.min);
        in.key_hi = orderstat::int64_key(st.max);
      } else if (in.type == orderstat::KeyType::kUInt64 && st.min >= 0) {
        in.key_lo = uint64_t(st.min);
        in.key_hi = uint64_t(st.max);
      }
    }
    in.values = keys.get();
    orderstat::RankSpec spec = order_stat_rank_spec(q_aggs[a].order_stat);
    std::vector<int64_t> k_per_group;  // k from other aggregates, known once the fused pass is back
    if (q_aggs[a].order_stat.k_expr) {
      k_per_group = star_k_per_group(r, *q_aggs[a].order_stat.k_expr);
      spec.k_per_group = k_per_group.data();
    }
    r.order_stats[a] = ops::gpu_order_statistics(in, {spec}, {});
  }
  r.order_stats_ms = timer.elapsed_ms();
}

}  // namespace raydb::exec::cuda
