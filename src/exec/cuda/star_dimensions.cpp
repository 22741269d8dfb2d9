// The dimension side of a star query (star_run.h): every column uploaded once, then
// per dimension a key-indexed lookup array of dense group codes (DESIGN decision 5).
#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "common/int_math.h"
#include "exec/cuda/host_column_cache.h"
#include "exec/cuda/star_run.h"
#include "gpu/stream_wait.h"

namespace raydb::exec::cuda {

namespace {

uint64_t key_range(const KeySpec& s) { return value_count(s.min, s.max); }

// A key-indexed lookup array spans the key's range: a sparse or huge range (keys far
// apart, e.g. BIGINT keys near +-2^63) or a key that is not unique goes to the general
// path instead (kNotImplemented).
void size_lookup(StarRun& r, DimRun& d) {
  const StarDim& sd = *d.dim;
  const ColumnStats& ks = sd.key->stats();
  const uint64_t span = ks.min <= ks.max ? uint64_t(ks.max) - uint64_t(ks.min) : 0;
  if (span >= std::max<uint64_t>(uint64_t(1) << 26, 8 * sd.key->size()))
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: join key {} spans too wide a range",
         sd.key->name());
  if (!r.cache.unique(sd.key))
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: join key {} is not unique", sd.key->name());
  d.K = span + 1;
  for (int k : sd.group_keys) {
    d.mult.push_back(d.local);
    d.local *= key_range(r.sp.key_specs[size_t(k)]);
    if (d.local > kLocalCodeLimit)
      fail(ErrorKind::kNotImplemented,
           "not supported on the CUDA backend yet: GROUP BY keys of one dimension spanning more than 2^22 codes");
  }
}

const ColumnPtr& group_column(const StarRun& r, int key) {
  const plan::Expr& g = *r.q.group_keys[size_t(key)];
  return r.q.tables[size_t(g.table_index)].table->column_ptr(size_t(g.column_index));
}

DimParams dim_params(StarRun& r, size_t i, const uint64_t* range_dev, u64* counts) {
  DimRun& d = r.dims[i];
  const StarDim& sd = *d.dim;
  DimParams p;
  p.rows = sd.key->size();
  p.key = d.key->dev;
  p.key_min = sd.key->stats().min;
  p.key_range = d.K;
  p.nfilters = int(sd.filters.size());
  for (size_t f = 0; f < sd.filters.size(); f++) {
    p.filters[f].col = r.cache.get(sd.filters[f].column, r.ctx.stream).dev;
    p.filters[f].ranges = range_dev + r.range_at[i][f];
    p.filters[f].nranges = r.range_n[i][f];
  }
  p.ngroups = int(sd.group_keys.size());
  for (size_t k = 0; k < sd.group_keys.size(); k++) {
    p.groups[k].col = r.cache.get(group_column(r, sd.group_keys[k]), r.ctx.stream).dev;
    p.groups[k].min = r.sp.key_specs[size_t(sd.group_keys[k])].min;
    p.groups[k].mult = d.mult[k];
  }
  p.lookup = d.arrays->lookup.get<int32_t>();
  p.flags = d.arrays->flags.get<uint32_t>();
  p.passed = counts + 2 * i + 1;
  return p;
}

// Filter the dimension into its lookup array, rank the present codes densely and
// remap; a dictionary-encoded foreign key gets the array indexed by its codes.
void build_dimension(StarRun& r, size_t i, const uint64_t* range_dev, u64* counts) {
  cudaStream_t s = r.ctx.stream;
  DimRun& d = r.dims[i];
  d.arrays = std::make_shared<DimArrays>();
  DimArrays& a = *d.arrays;
  a.lookup = gpu::DeviceBuffer(d.K * 4, "a dimension lookup array");
  a.flags = gpu::DeviceBuffer(d.local * 4, "dimension group flags");
  a.dense = gpu::DeviceBuffer(d.local * 4, "dimension group codes");
  a.inv = gpu::DeviceBuffer(d.local * 4, "dimension group codes");
  gpu::check_cuda(cudaMemsetAsync(a.lookup.get(), 0xff, d.K * 4, s), "cudaMemset");
  gpu::check_cuda(cudaMemsetAsync(a.flags.get(), 0, d.local * 4, s), "cudaMemset");
  launch_dim_build(dim_params(r, i, range_dev, counts), s);
  launch_dim_rank(a.flags.get<uint32_t>(), d.local, a.dense.get<int32_t>(), a.inv.get<int32_t>(), counts + 2 * i, s);
  // One local code (no GROUP BY key on this dimension): dense[0] = 0, the remap is the identity.
  if (d.local > 1) launch_dim_remap(a.lookup.get<int32_t>(), d.K, a.dense.get<int32_t>(), s);
  if (d.fk->dev.decode) {
    a.translated = gpu::DeviceBuffer(d.fk->host_decode.size() * 4, "a translated lookup array");
    launch_translate(a.lookup.get<int32_t>(), d.dim->key->stats().min, d.K, d.fk->dev.decode, d.fk->host_decode.size(),
                     a.translated.get<int32_t>(), s);
  }
}

// What dimension i's arrays are made of (build_dimension and dim_params read nothing
// else): the key, filter and group columns, the foreign key when its codes translate
// the lookup, and the key range, filter ranges and group radices in stored values.
DimKey dimension_key(const StarRun& r, size_t i) {
  const DimRun& d = r.dims[i];
  const StarDim& sd = *d.dim;
  DimKey k;
  k.columns.push_back(sd.key);
  k.words = {d.K, uint64_t(sd.key->stats().min), d.local, sd.filters.size(), sd.group_keys.size()};
  for (size_t f = 0; f < sd.filters.size(); f++) {
    k.columns.push_back(sd.filters[f].column);
    const auto from = r.ranges.begin() + ptrdiff_t(r.range_at[i][f]);
    k.words.push_back(uint64_t(r.range_n[i][f]));
    k.words.insert(k.words.end(), from, from + 2 * r.range_n[i][f]);
  }
  for (size_t g = 0; g < sd.group_keys.size(); g++) {
    k.columns.push_back(group_column(r, sd.group_keys[g]));
    k.words.push_back(uint64_t(r.sp.key_specs[size_t(sd.group_keys[g])].min));
    k.words.push_back(d.mult[g]);
  }
  k.words.push_back(d.fk->dev.decode ? 1 : 0);
  if (d.fk->dev.decode) k.columns.push_back(d.fk->owner);
  return k;
}

}  // namespace

// Upload (once per process) everything the query reads; not part of device time.
void upload_star_columns(StarRun& r) {
  const StarPlan& sp = r.sp;
  cudaStream_t s = r.ctx.stream;
  // Streamed: fact columns not resident are read into pinned host memory instead.
  for (auto& c : sp.fact_columns) {
    const HostColumn* h = r.stream && !r.cache.resident(c.get()) ? &HostColumnCache::instance().get(c, s) : nullptr;
    r.host_fact.push_back(h);
    r.fact.push_back(h ? &h->meta : &r.cache.get(c, s));
  }
  r.nothing = sp.always_false || sp.root_rows == 0;
  r.dims.resize(sp.dims.size());
  for (size_t i = 0; i < sp.dims.size(); i++) {
    const StarDim& sd = sp.dims[i];
    DimRun& d = r.dims[i];
    d.dim = &sd;
    d.key = &r.cache.get(sd.key, s);
    d.fk = r.fact[size_t(sd.fact_col)];
    if (sd.always_false || sd.key->size() == 0) r.nothing = true;
    size_lookup(r, d);
    for (auto& f : sd.filters) r.cache.get(f.column, s);
    for (int k : sd.group_keys) r.cache.get(group_column(r, k), s);
  }
}

void collect_filter_ranges(StarRun& r) {
  r.range_at.assign(r.dims.size(), {});
  r.range_n.assign(r.dims.size(), {});
  for (size_t i = 0; i < r.dims.size() && !r.nothing; i++)
    for (auto& f : r.dims[i].dim->filters) {
      auto sr = r.cache.get(f.column, r.ctx.stream).stored_ranges(f.ranges);
      if (sr.empty()) r.nothing = true;
      r.range_at[i].push_back(r.ranges.size());
      r.range_n[i].push_back(int(sr.size()));
      for (auto [a, b] : sr) r.ranges.push_back(a), r.ranges.push_back(b);
    }
}

// Every dimension's lookup array, then its code and pass counts on the host: dense
// codes give each dimension its stride in the group id; none means no row can pass.
// Arrays kept from an earlier statement (dimension_cache.h) are reused with their
// counts; when every dimension is reused there is nothing to wait for.
void build_dimensions(StarRun& r) {
  cudaStream_t s = r.ctx.stream;
  StarContext& ctx = r.ctx;
  if (r.dims.empty()) {  // a plain scan: no counts to read back, so no wait before the fact pass
    gpu::check_cuda(cudaEventRecord(ctx.dims_done, s), "cudaEventRecord");
    r.R = 1;
    return;
  }
  const bool keep = r.settings.cuda_dimension_cache();
  std::vector<DimKey> keys(r.dims.size());
  bool all_reused = keep;
  for (size_t i = 0; i < r.dims.size() && keep; i++) {
    DimRun& d = r.dims[i];
    keys[i] = dimension_key(r, i);
    d.arrays = DimensionCache::instance().find(keys[i]);
    d.reused = d.arrays != nullptr;
    all_reused = all_reused && d.reused;
  }
  if (!all_reused) {
    gpu::DeviceBuffer range_buf(std::max<uint64_t>(r.ranges.size() * 8, 8), "filter ranges");
    gpu::DeviceBuffer stats_buf(std::max<uint64_t>(r.dims.size() * 16, 16), "dimension counts");
    gpu::check_cuda(cudaMemsetAsync(stats_buf.get(), 0, stats_buf.bytes(), s), "cudaMemset");
    if (!r.ranges.empty()) {
      ctx.host.ensure(r.ranges.size() * 8);
      std::memcpy(ctx.host.get(), r.ranges.data(), r.ranges.size() * 8);
      gpu::check_cuda(cudaMemcpyAsync(range_buf.get(), ctx.host.get(), r.ranges.size() * 8, cudaMemcpyHostToDevice, s),
                      "copy");
    }
    u64* counts = stats_buf.get<u64>();
    for (size_t i = 0; i < r.dims.size(); i++)
      if (!r.dims[i].reused) build_dimension(r, i, range_buf.get<uint64_t>(), counts);
    gpu::check_cuda(cudaEventRecord(ctx.dims_done, s), "cudaEventRecord");
    gpu::check_cuda(cudaMemcpyAsync(ctx.host.get(), counts, r.dims.size() * 16, cudaMemcpyDeviceToHost, s), "copy");
    gpu::wait_cancellable(s, "dimension kernels");
    for (size_t i = 0; i < r.dims.size(); i++) {
      DimRun& d = r.dims[i];
      if (d.reused) continue;
      d.arrays->codes = ctx.host.get<u64>()[2 * i];
      d.arrays->passed = ctx.host.get<u64>()[2 * i + 1];
      // The build's scratch (the kernels finished above): not kept with the arrays.
      d.arrays->flags.reset();
      d.arrays->dense.reset();
      if (keep) DimensionCache::instance().put(std::move(keys[i]), d.arrays);
    }
  } else {
    gpu::check_cuda(cudaEventRecord(ctx.dims_done, s), "cudaEventRecord");
  }
  r.R = 1;
  for (size_t i = 0; i < r.dims.size(); i++) {
    DimRun& d = r.dims[i];
    d.codes = d.arrays->codes;
    d.passed = d.arrays->passed;
    if (d.codes == 0) r.nothing = true;
    d.stride = r.R;
    r.R *= std::max<uint64_t>(d.codes, 1);
  }
}

// Root GROUP BY keys take the group id's last digits, one per stored value.
void plan_root_groups(StarRun& r) {
  for (size_t k = 0; k < r.sp.root_group_keys.size(); k++) {
    r.radix_root[k] = r.fact[size_t(r.sp.root_group_cols[k])]->stored_range();
    r.stride_root[k] = r.R;
    r.R *= r.radix_root[k];
    if (r.R > (uint64_t(1) << 31))
      fail(ErrorKind::kNotImplemented,
           "not supported on the CUDA backend yet: a group range above 2^31 (GPU hash aggregation)");
  }
}

}  // namespace raydb::exec::cuda
