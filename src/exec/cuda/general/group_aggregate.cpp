#include "exec/cuda/general/group_aggregate.h"

#include <algorithm>
#include <cstring>

#include "exec/core/aggregate_states.h"
#include "exec/cuda/ops/order_statistics_gpu.h"
#include "gpu/device_buffer.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/group_kernels.h"
#include "exec/cuda/general/top_group_kernels.h"

namespace raydb::exec::cuda::general {

using plan::AggFunc;

namespace {

template <typename T>
std::vector<T> copy_back(const gpu::DeviceBuffer& b, uint64_t n, cudaStream_t s) {
  std::vector<T> v(n);
  if (n) gpu::check_cuda(cudaMemcpyAsync(v.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost, s), "copy");
  return v;
}

// A per-group array of 8-byte words back to the host: every group's word, or the
// picked groups' words gathered first. (The pool reuses the gathered buffer only for
// later work on the same stream, which runs after the copy.)
template <typename T>
std::vector<T> copy_back(const gpu::DeviceBuffer& b, uint64_t groups, const GroupSubset* pick, cudaStream_t s) {
  static_assert(sizeof(T) == 8);
  if (!pick) return copy_back<T>(b, groups, s);
  gpu::DeviceBuffer picked(std::max<uint64_t>(pick->m, 1) * 8, "aggregates");
  launch_gather_u64(b.get<unsigned long long>(), pick->ids, pick->m, picked.get<unsigned long long>(), s);
  return copy_back<T>(picked, pick->m, s);
}

}  // namespace

bool needs_group_order(AggFunc func, bool distinct, VectorKind kind) {
  return !distinct && (func == AggFunc::kSum || func == AggFunc::kAvg) && kind == VectorKind::kDouble;
}

GroupAggregateResult aggregate_group_values(AggFunc func, bool distinct, VectorKind kind, const GroupLayout& l,
                                            const __int128* values, const uint8_t* nulls, cudaStream_t s,
                                            const GroupSubset* pick) {
  const uint64_t n = l.n, groups = l.groups, G1 = std::max<uint64_t>(groups, 1);
  const uint64_t out = pick ? pick->m : groups;  // results per group that come back
  if (distinct) {
    // The first row of each (group, value) pair, grouped by group: the plain aggregate
    // over those rows is the DISTINCT aggregate (COUNT counts the pairs).
    const uint64_t n1 = std::max<uint64_t>(n, 1);
    gpu::DeviceBuffer gid(n1 * 4, "distinct pairs"), vals(n1 * 16, "distinct pairs"), nl(n1, "distinct pairs");
    const uint64_t m = distinct_pairs(kind == VectorKind::kDouble, l.gid, values, nulls, n, gid.get<uint32_t>(),
                                      vals.get<__int128>(), s);
    gpu::check_cuda(cudaMemsetAsync(nl.get(), 0, n1, s), "cudaMemset");
    GroupLayout d;
    d.n = m;
    d.groups = groups;
    d.gid = gid.get<uint32_t>();
    d.order = nullptr;  // already in (group, value) order
    return aggregate_group_values(func, false, kind, d, vals.get<__int128>(), nl.get<uint8_t>(), s, pick);
  }
  GroupAggregateResult r;
  gpu::DeviceBuffer count(G1 * 8, "aggregates");
  gpu::check_cuda(cudaMemsetAsync(count.get(), 0, G1 * 8, s), "cudaMemset");
  AggAccumulators acc;
  acc.count = count.get<unsigned long long>();
  const bool is_double = kind == VectorKind::kDouble && func != AggFunc::kCount;
  r.is_double = is_double;
  if (func == AggFunc::kCount) {
    launch_aggregate(1, l.gid, values, nulls, n, acc, s, G1);
  } else if (func == AggFunc::kSum || func == AggFunc::kAvg) {
    if (is_double) {
      gpu::DeviceBuffer bits(G1 * 8, "aggregates");
      launch_aggregate(1, l.gid, values, nulls, n, acc, s, G1);
      launch_exact_double_sum(l.gid, l.order, values, nulls, n, groups, bits.get<unsigned long long>(), s);
      std::vector<uint64_t> b = copy_back<uint64_t>(bits, groups, pick, s);
      gpu::check_cuda(cudaStreamSynchronize(s), "aggregate");
      r.doubles.resize(out);
      if (out) std::memcpy(r.doubles.data(), b.data(), out * 8);
    } else {
      gpu::DeviceBuffer lo(G1 * 8, "aggregates"), hi(G1 * 8, "aggregates");
      gpu::check_cuda(cudaMemsetAsync(lo.get(), 0, G1 * 8, s), "cudaMemset");
      gpu::check_cuda(cudaMemsetAsync(hi.get(), 0, G1 * 8, s), "cudaMemset");
      acc.sum_lo = lo.get<unsigned long long>();
      acc.sum_hi = hi.get<unsigned long long>();
      gpu::DeviceBuffer top;
      if (kind == VectorKind::kHuge) {
        top = gpu::DeviceBuffer(G1 * 8, "aggregates");
        gpu::check_cuda(cudaMemsetAsync(top.get(), 0, G1 * 8, s), "cudaMemset");
        acc.sum_top = top.get<unsigned long long>();
      }
      launch_aggregate(2, l.gid, values, nulls, n, acc, s, G1);
      std::vector<uint64_t> hl = copy_back<uint64_t>(lo, groups, pick, s), hh = copy_back<uint64_t>(hi, groups, pick, s);
      std::vector<int64_t> ht = acc.sum_top ? copy_back<int64_t>(top, groups, pick, s) : std::vector<int64_t>();
      gpu::check_cuda(cudaStreamSynchronize(s), "aggregate");
      r.value.resize(out);
      for (uint64_t g = 0; g < out; g++) r.value[g] = __int128((unsigned __int128)hh[g] << 64 | hl[g]);
      // total = top * 2^128 + (hi:lo unsigned) = value + (top + [value < 0]) * 2^128.
      if (!ht.empty()) {
        r.wraps.resize(out);
        for (uint64_t g = 0; g < out; g++) r.wraps[g] = ht[g] + (r.value[g] < 0 ? 1 : 0);
      }
    }
  } else if (func == AggFunc::kMin || func == AggFunc::kMax) {
    const bool mn = func == AggFunc::kMin;
    if (kind == VectorKind::kHuge) {
      gpu::DeviceBuffer hi(G1 * 8, "aggregates"), lo(G1 * 8, "aggregates");
      launch_fill_i64(hi.get<long long>(), G1, mn ? INT64_MAX : INT64_MIN, s);
      launch_fill_u64(lo.get<unsigned long long>(), G1, mn ? ~0ull : 0ull, s);
      launch_aggregate(1, l.gid, values, nulls, n, acc, s, G1);
      launch_extreme_i128(mn, l.gid, values, nulls, n, hi.get<long long>(), lo.get<unsigned long long>(), s);
      std::vector<int64_t> hh = copy_back<int64_t>(hi, groups, pick, s);
      std::vector<uint64_t> hl = copy_back<uint64_t>(lo, groups, pick, s);
      gpu::check_cuda(cudaStreamSynchronize(s), "aggregate");
      r.value.resize(out);
      for (uint64_t g = 0; g < out; g++) r.value[g] = __int128((unsigned __int128)uint64_t(hh[g]) << 64 | hl[g]);
    } else {
      gpu::DeviceBuffer ext(G1 * 8, "aggregates"), keys;
      launch_fill_i64(ext.get<long long>(), G1, mn ? INT64_MAX : INT64_MIN, s);
      acc.extreme = ext.get<long long>();
      const __int128* v = values;
      if (is_double) {
        // Through the integer atomics on an order-preserving key.
        keys = gpu::DeviceBuffer(std::max<uint64_t>(n, 1) * 16, "aggregates");
        launch_double_order_keys(values, n, keys.get<__int128>(), s);
        v = keys.get<__int128>();
      }
      launch_aggregate(mn ? 3 : 4, l.gid, v, nulls, n, acc, s, G1);
      std::vector<int64_t> he = copy_back<int64_t>(ext, groups, pick, s);
      gpu::check_cuda(cudaStreamSynchronize(s), "aggregate");
      if (is_double) {
        r.doubles.resize(out);
        for (uint64_t g = 0; g < out; g++) r.doubles[g] = order_key_to_double(he[g]);
      } else {
        r.value.assign(he.begin(), he.end());
      }
    }
  } else {
    launch_aggregate(0, l.gid, nullptr, nullptr, n, acc, s, G1);
  }
  r.count = copy_back<int64_t>(count, groups, pick, s);
  gpu::check_cuda(cudaStreamSynchronize(s), "aggregate");
  return r;
}

GroupOrderStats order_stat_group_values(const plan::OrderStatSpec& spec, const int64_t* k_per_group, bool distinct,
                                        VectorKind kind,
                                        const GroupLayout& l, const __int128* values, const uint8_t* nulls,
                                        cudaStream_t s) {
  GroupOrderStats out;
  out.key_type = kind == VectorKind::kDouble ? orderstat::KeyType::kDouble
                 : kind == VectorKind::kCode ? orderstat::KeyType::kUInt64
                                             : orderstat::KeyType::kInt64;
  const uint64_t groups = l.gid ? l.groups : 1, n1 = std::max<uint64_t>(l.n, 1);
  uint64_t rows = l.n;
  const uint32_t* gid = l.gid;
  gpu::DeviceBuffer pair_gid, pair_values;
  if (distinct) {
    pair_gid = gpu::DeviceBuffer(n1 * 4, "distinct pairs");
    pair_values = gpu::DeviceBuffer(n1 * 16, "distinct pairs");
    rows = distinct_pairs(kind == VectorKind::kDouble, l.gid, values, nulls, l.n, pair_gid.get<uint32_t>(),
                          pair_values.get<__int128>(), s);
    values = pair_values.get<__int128>();
    nulls = nullptr;  // distinct_pairs drops NULLs
    gid = l.gid ? pair_gid.get<uint32_t>() : nullptr;
  }
  gpu::DeviceBuffer keys(std::max<uint64_t>(rows, 1) * 8, "order statistic keys");
  launch_low_words(values, rows, keys.get<unsigned long long>(), s);
  // The selection runs on the default stream: the keys must be complete first.
  gpu::check_cuda(cudaStreamSynchronize(s), "order statistic keys");
  orderstat::ColumnInput in;
  in.type = out.key_type;
  in.values = keys.get();
  in.n = rows;
  in.nulls = nulls;
  in.group_ids = gid;
  in.groups = uint32_t(groups);
  orderstat::RankSpec rank = order_stat_rank_spec(spec);
  rank.k_per_group = k_per_group;
  const orderstat::OrderStats r = ops::gpu_order_statistics(in, {rank}, {});
  out.values.resize(l.gid ? l.groups : 1);
  for (uint64_t g = 0; g < out.values.size(); g++) out.values[g] = r.at(uint32_t(g), 0);
  return out;
}

}  // namespace raydb::exec::cuda::general
