#include "exec/cuda/general/top_group_pick.h"

#include <atomic>

#include "exec/cuda/cuda_device.h"

#include "exec/core/top_groups.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/top_group_kernels.h"

namespace raydb::exec::cuda::general {

using plan::AggFunc;

namespace {

std::atomic<uint64_t> g_picks{0};

// One group's ranked aggregate, accumulated over the rows (launch_aggregate's words).
struct RankedAggregate {
  gpu::DeviceBuffer count, lo, hi, top;
  bool is_sum = false;
};

RankedAggregate accumulate(GeneralQuery& g, const Tuples& cur, const GroupLayout& layout, const GeneralAgg& ga) {
  const uint64_t G1 = std::max<uint64_t>(layout.groups, 1);
  RankedAggregate r;
  auto zeroed = [&](gpu::DeviceBuffer& b) {
    b = gpu::DeviceBuffer(G1 * 8, "top groups");
    gpu::check_cuda(cudaMemsetAsync(b.get(), 0, G1 * 8, g.s), "cudaMemset");
    return b.get<unsigned long long>();
  };
  AggAccumulators acc;
  acc.count = zeroed(r.count);
  if (!ga.has_arg) {
    launch_aggregate(0, layout.gid, nullptr, nullptr, layout.n, acc, g.s);
    return r;
  }
  Column128 arg = g.programs.eval(ga.arg, cur);
  r.is_sum = ga.func == AggFunc::kSum;
  if (r.is_sum) {
    acc.sum_lo = zeroed(r.lo);
    acc.sum_hi = zeroed(r.hi);
    if (ga.arg.kind == VectorKind::kHuge) acc.sum_top = zeroed(r.top);
  }
  launch_aggregate(r.is_sum ? 2 : 1, layout.gid, arg.v(), arg.nl(), layout.n, acc, g.s);
  gpu::check_cuda(cudaStreamSynchronize(g.s), "top groups");  // arg's buffers go back to the pool here
  return r;
}

template <typename T>
T read_back(const void* dev, cudaStream_t s) {
  T v{};
  gpu::check_cuda(cudaMemcpyAsync(&v, dev, sizeof(T), cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "top groups");
  return v;
}

}  // namespace

bool device_pick_applies(const GeneralQuery& g) {
  const plan::LogicalQuery& q = g.q;
  if (q.having || !prunable_top_groups(q)) return false;
  for (const GeneralAgg& ga : g.gp.aggs)
    if (ga.func == AggFunc::kOrderStat) return false;
  const plan::Expr& e = top_groups_order_expr(q);
  if (e.kind != plan::ExprKind::kAggregateRef || e.ref_index < 0 || size_t(e.ref_index) >= g.gp.aggs.size())
    return false;
  const GeneralAgg& ga = g.gp.aggs[size_t(e.ref_index)];
  if (ga.distinct) return false;
  if (ga.func == AggFunc::kCountStar || ga.func == AggFunc::kCount) return true;
  if (ga.func != AggFunc::kSum || !ga.has_arg) return false;
  if (ga.arg.kind != VectorKind::kInt && ga.arg.kind != VectorKind::kHuge) return false;
  const VectorKind result = kind_of(q.aggregates[size_t(e.ref_index)].type);
  return result == VectorKind::kInt || result == VectorKind::kHuge;
}

std::optional<GroupPick> device_top_groups(GeneralQuery& g, const Tuples& cur, const GroupLayout& layout) {
  const plan::LogicalQuery& q = g.q;
  const uint64_t groups = layout.groups;
  const uint64_t need = uint64_t(q.limit) + uint64_t(q.offset);
  if (groups < 2 || need >= groups / 2) return std::nullopt;  // top_group_candidates' rule
  GroupPick pick;
  if (need == 0) {
    g_picks++;
    return pick;
  }
  const plan::OrderItem& item = q.order_by.front();
  const size_t a = size_t(top_groups_order_expr(q).ref_index);
  RankedAggregate r = accumulate(g, cur, layout, g.gp.aggs[a]);
  const bool int64_result = kind_of(q.aggregates[a].type) == VectorKind::kInt;

  gpu::DeviceBuffer keys(groups * 16, "top groups"), stats(16, "top groups");
  gpu::check_cuda(cudaMemsetAsync(stats.get(), 0, 16, g.s), "cudaMemset");
  launch_top_keys(r.count.get<unsigned long long>(), r.is_sum ? r.lo.get<unsigned long long>() : nullptr,
                  r.hi.get<unsigned long long>(), r.top.get<unsigned long long>(), groups, item.descending,
                  int64_result, keys.get<unsigned __int128>(), stats.get<unsigned long long>(), g.s);
  struct Stats {
    uint64_t nulls, reject;
  };
  const Stats st = read_back<Stats>(stats.get(), g.s);
  if (st.reject) return std::nullopt;  // the host path raises the CPU's overflow error

  // rows_not_after_kth (exec/core/top_groups.cpp) over the keys: NULLs first take the
  // first places; otherwise the k-th smallest non-NULL key is the threshold.
  const uint64_t values = groups - st.nulls;
  bool values_in = true;
  unsigned __int128 threshold = 0;
  if (item.nulls_first && st.nulls >= need) {
    values_in = false;
  } else if (!item.nulls_first && values < need) {
    return std::nullopt;  // every group is kept
  } else {
    const uint64_t k = item.nulls_first ? need - st.nulls : need;  // 1 <= k <= values
    gpu::DeviceBuffer sorted(groups * 16, "top groups");
    sort_keys_u128(keys.get<unsigned __int128>(), sorted.get<unsigned __int128>(), groups, g.s);
    // NULL keys are all ones, so the first `values` sorted keys hold every non-NULL one
    // below all ones; a non-NULL all-ones key ties with them and is the same threshold.
    threshold = read_back<unsigned __int128>(sorted.get<unsigned __int128>() + (k - 1), g.s);
  }
  gpu::DeviceBuffer flags(groups, "top groups");
  launch_top_flags(keys.get<unsigned __int128>(), r.count.get<unsigned long long>(), r.is_sum, groups, threshold,
                   item.nulls_first, values_in, flags.get<uint8_t>(), g.s);
  pick.ids = gpu::DeviceBuffer(groups * 4, "top groups");
  const uint64_t m = select_flagged(flags.get<uint8_t>(), groups, pick.ids.get<uint32_t>(), g.s);
  if (m >= groups / 2) return std::nullopt;
  g_picks++;
  pick.host_ids.resize(m);
  if (m) {
    gpu::check_cuda(cudaMemcpyAsync(pick.host_ids.data(), pick.ids.get(), m * 4, cudaMemcpyDeviceToHost, g.s), "copy");
    gpu::check_cuda(cudaStreamSynchronize(g.s), "top groups");
  }
  return pick;
}

}  // namespace raydb::exec::cuda::general

namespace raydb::exec::cuda {
uint64_t device_top_group_picks() { return general::g_picks.load(); }
}  // namespace raydb::exec::cuda
