// The fused fact pass of a star query (star_run.h): one kernel streams the fact table
// once (tile load, predicates, probes, group code, aggregate).
#include <algorithm>
#include <numeric>

#include "exec/cuda/star_run.h"

namespace raydb::exec::cuda {

namespace {

void add_fact_predicates(StarRun& r, StarParams& p) {
  for (auto& f : r.sp.fact_filters) {
    auto sr = r.fact[size_t(f.fact_col)]->stored_ranges(f.ranges);
    if (sr.empty()) r.nothing = true;
    DevPred& dp = p.preds[p.npreds++];
    dp.col = f.fact_col;
    dp.nranges = int(sr.size());
    for (size_t k = 0; k < sr.size(); k++) dp.lo[k] = sr[k].first, dp.hi[k] = sr[k].second;
  }
}

// Probe the most selective dimension first (exact counts from the dimension pass).
std::vector<size_t> probe_order(const StarRun& r) {
  std::vector<size_t> order(r.dims.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return double(r.dims[a].passed) / double(r.dims[a].dim->key->size()) <
           double(r.dims[b].passed) / double(r.dims[b].dim->key->size());
  });
  return order;
}

// The probe of one dimension: its lookup array (translated for a dictionary-encoded
// foreign key), narrowed to 1 or 2 bytes per entry where its group codes allow
// (kernel_params.h: DevJoin) unless the setting cuda_narrow_lookup is off.
void add_probe(StarRun& r, DimRun& d, StarParams& p) {
  DevJoin& j = p.joins[p.njoins++];
  j.col = d.dim->fact_col;
  j.stride = d.stride;
  const int32_t* wide = nullptr;
  if (d.fk->dev.decode) {
    wide = d.translated.get<int32_t>();
    j.offset = 0;
    j.size = d.fk->host_decode.size();
  } else {
    wide = d.lookup.get<int32_t>();
    j.offset = d.fk->dev.base - d.dim->key->stats().min;  // stored + offset = key - key_min
    j.size = d.K;
  }
  j.lookup = wide;
  j.width = 4;
  {
    const __int128 off = j.offset, top = off + __int128(d.fk->stored_range()) - 1;
    j.idx32 = off >= -(__int128(1) << 31) && top < (__int128(1) << 32) && j.size <= (uint64_t(1) << 31) ? 1 : 0;
  }
  const bool narrow_lookups = r.settings.cuda_narrow_lookup();
  const int width = !narrow_lookups ? 4 : d.codes <= 254 ? 1 : d.codes <= 65534 ? 2 : 4;
  if (width < 4) {
    d.narrow = gpu::DeviceBuffer(j.size * uint64_t(width), "a narrowed lookup array");
    launch_narrow_lookup(wide, j.size, d.narrow.get(), width, r.ctx.stream);
    j.lookup = d.narrow.get();
    j.width = width;
  }
}

}  // namespace

void plan_accumulators(StarRun& r) {
  const auto& aggs = r.sp.aggs;
  r.lo_field.assign(aggs.size(), -1);
  r.hi_field.assign(aggs.size(), -1);
  for (size_t a = 0; a < aggs.size(); a++) {
    if (aggs[a].dev.func == kAggCount) continue;
    r.lo_field[a] = r.nfields++;
    if (aggs[a].dev.wide) r.hi_field[a] = r.nfields++;
  }
  r.radix_root.assign(r.sp.root_group_keys.size(), 0);
  r.stride_root.assign(r.sp.root_group_keys.size(), 0);
}

StarParams fact_params(StarRun& r) {
  const StarPlan& sp = r.sp;
  StarParams p;
  p.rows = sp.root_rows;
  p.groups = r.R;
  p.ncols = int(r.fact.size());
  for (size_t c = 0; c < r.fact.size(); c++) p.cols[c] = r.fact[c]->dev;
  add_fact_predicates(r, p);
  for (size_t i : probe_order(r)) add_probe(r, r.dims[i], p);
  for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
    DevRootGroup& g = p.root_groups[p.nroot_groups++];
    g.col = sp.root_group_cols[k];
    g.stride = r.stride_root[k];
  }
  p.naggs = int(sp.aggs.size());
  for (size_t a = 0; a < sp.aggs.size(); a++) p.aggs[a] = sp.aggs[a].dev;
  // Registers without GROUP BY, shared memory while the groups fit, else global atomics.
  p.mode = r.q.group_keys.empty() ? 0 : 1;
  if (p.mode == 1 && star_shared_bytes(p) > kSharedLimit) p.mode = 2;
  return p;
}

// Zeroed accumulators (MIN/MAX at their identities), then the kernel, between the
// fact_start and fact_done events.
void run_fact_pass(StarRun& r, StarParams& p, gpu::DeviceBuffer& acc) {
  cudaStream_t s = r.ctx.stream;
  const uint64_t R = r.R;
  acc = gpu::DeviceBuffer(R * uint64_t(r.nfields) * 8, "group accumulators");
  u64* base = acc.get<u64>();
  gpu::check_cuda(cudaMemsetAsync(base, 0, acc.bytes(), s), "cudaMemset");
  p.acc.count = base;
  for (size_t a = 0; a < r.sp.aggs.size(); a++) {
    if (r.lo_field[a] < 0) continue;
    p.acc.lo[a] = base + uint64_t(r.lo_field[a]) * R;
    if (r.hi_field[a] >= 0) p.acc.hi[a] = base + uint64_t(r.hi_field[a]) * R;
    const int f = r.sp.aggs[a].dev.func;
    if (f == kAggMin) launch_fill(p.acc.lo[a], R, u64(INT64_MAX), s);
    if (f == kAggMax) launch_fill(p.acc.lo[a], R, u64(INT64_MIN), s);
  }
  StarKnobs knobs;
  knobs.smem_lookup = r.settings.cuda_smem_lookup();
  knobs.rowshape = r.settings.cuda_rowshape();
  knobs.blocked = r.settings.cuda_blocked_layout();
  gpu::check_cuda(cudaEventRecord(r.ctx.fact_start, s), "cudaEventRecord");
  if (!r.nothing) launch_star(p, knobs, s);
  gpu::check_cuda(cudaEventRecord(r.ctx.fact_done, s), "cudaEventRecord");
  gpu::check_cuda(cudaGetLastError(), "fact kernel launch");
}

}  // namespace raydb::exec::cuda
