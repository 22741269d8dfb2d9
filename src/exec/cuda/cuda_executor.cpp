// Runs a star plan (star_plan.h) on the GPU: dimension lookup arrays, one fused
// pass over the fact table, then the CPU backend's own finishing code (HAVING,
// SELECT, DISTINCT, ORDER BY, LIMIT) so results agree row for row.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "common/int_math.h"
#include "common/timer.h"
#include "exec/core/aggregate_states.h"
#include "exec/cuda/column_cache.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "gpu/current_device.h"
#include "gpu/device_buffer.h"
#include "gpu/event.h"
#include "gpu/stream.h"
#include "gpu/pinned_buffer.h"
#include "exec/cuda/kernels.h"
#include "exec/cuda/star_plan.h"
#include "exec/cuda/general/general_executor.h"
#include "exec/cuda/general/index_steps.h"
#include "exec/core/result_finisher.h"

namespace raydb::exec::cuda {

using plan::AggFunc;
using u64 = unsigned long long;

namespace {

constexpr uint64_t kLocalCodeLimit = uint64_t(1) << 22;  // per-dimension group code range
constexpr uint64_t kCopyAllGroups = 16384;              // below this, copy accumulators without compaction
constexpr size_t kSharedLimit = 48 * 1024;              // shared accumulators per block

// The star path's stream, events and staging memory, created once per process on device 0.
struct Context {
  gpu::CurrentDevice device;  // first: what follows belongs to device 0
  gpu::Stream stream;
  gpu::Event start, stop;
  gpu::Event dims_done, fact_start, fact_done;  // RAYDB_CUDA_PROFILE phases
  bool profile = false;
  gpu::PinnedBuffer host;  // staging for small uploads and results
  Context() {
    const char* prof = std::getenv("RAYDB_CUDA_PROFILE");
    profile = prof && *prof && *prof != '0';
    host.ensure(1 << 20);
  }
};

Context& context() {
  static Context* c = new Context();
  return *c;
}

uint64_t key_range(const KeySpec& s) { return value_count(s.min, s.max); }

struct DimRun {
  const StarDim* dim = nullptr;
  const DeviceColumn* key = nullptr;
  const DeviceColumn* fk = nullptr;
  uint64_t K = 0;       // key range (lookup entries)
  uint64_t local = 1;   // local code range
  std::vector<uint64_t> mult;  // per group key of the dim
  gpu::DeviceBuffer lookup, flags, dense, inv, translated, narrow;
  uint64_t codes = 0, passed = 0;
  uint64_t stride = 0;
  std::vector<int32_t> inv_host;
};

}  // namespace

namespace {

ResultTable execute_star(const plan::PhysicalPlan& plan, const StarPlan& sp, const ExecOptions& options) {
  if (device_count() == 0) fail(ErrorKind::kNotImplemented, "no CUDA device: {}", no_device_reason());
  const plan::LogicalQuery& q = *plan.query;
  Context& ctx = context();
  ColumnCache& cache = ColumnCache::instance();
  Timer timer;
  ResultTable result;
  result.interner = std::make_shared<StringInterner>();
  result.names = q.output_names;

  // Upload (once per process) everything the query reads; not part of device time.
  std::vector<const DeviceColumn*> fact;
  for (auto& c : sp.fact_columns) fact.push_back(&cache.get(c, ctx.stream));
  bool nothing = sp.always_false || sp.root_rows == 0;
  std::vector<DimRun> dims(sp.dims.size());
  for (size_t i = 0; i < sp.dims.size(); i++) {
    const StarDim& d = sp.dims[i];
    DimRun& r = dims[i];
    r.dim = &d;
    r.key = &cache.get(d.key, ctx.stream);
    r.fk = fact[size_t(d.fact_col)];
    if (d.always_false || d.key->size() == 0) nothing = true;
    // A key-indexed lookup array spans the key's range: a sparse or huge range (keys
    // far apart, e.g. BIGINT keys near +-2^63) goes to the general path instead.
    const ColumnStats& ks = d.key->stats();
    const uint64_t span = ks.min <= ks.max ? uint64_t(ks.max) - uint64_t(ks.min) : 0;
    if (span >= std::max<uint64_t>(uint64_t(1) << 26, 8 * d.key->size()))
      fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: join key {} spans too wide a range",
           d.key->name());
    if (!cache.unique(d.key))
      fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: join key {} is not unique", d.key->name());
    r.K = span + 1;
    for (int k : d.group_keys) {
      r.mult.push_back(r.local);
      r.local *= key_range(sp.key_specs[size_t(k)]);
      if (r.local > kLocalCodeLimit)
        fail(ErrorKind::kNotImplemented,
             "not supported on the CUDA backend yet: GROUP BY keys of one dimension spanning more than 2^22 codes");
    }
    for (auto& f : d.filters) cache.get(f.column, ctx.stream);
    for (int k : d.group_keys) {
      const plan::Expr& g = *q.group_keys[size_t(k)];
      cache.get(q.tables[size_t(g.table_index)].table->column_ptr(size_t(g.column_index)), ctx.stream);
    }
  }
  const double upload_ms = timer.elapsed_ms();
  uint64_t fact_bytes = 0;
  for (auto* c : fact) fact_bytes += c->bytes();

  // Ranges of all dimension filters, uploaded in one copy.
  std::vector<uint64_t> ranges;
  std::vector<std::vector<size_t>> range_at(dims.size());
  std::vector<std::vector<int>> range_n(dims.size());
  for (size_t i = 0; i < dims.size() && !nothing; i++)
    for (auto& f : dims[i].dim->filters) {
      auto sr = cache.get(f.column, ctx.stream).stored_ranges(f.ranges);
      if (sr.empty()) nothing = true;
      range_at[i].push_back(ranges.size());
      range_n[i].push_back(int(sr.size()));
      for (auto [a, b] : sr) ranges.push_back(a), ranges.push_back(b);
    }

  const size_t ng = q.group_keys.size();
  std::vector<uint64_t> present;             // group ids with rows
  std::vector<std::vector<u64>> fields;      // per field, per present group (count, then per agg lo[, hi])
  std::vector<int> lo_field(sp.aggs.size(), -1), hi_field(sp.aggs.size(), -1);
  int nfields = 1;
  for (size_t a = 0; a < sp.aggs.size(); a++) {
    if (sp.aggs[a].dev.func == kAggCount) continue;
    lo_field[a] = nfields++;
    if (sp.aggs[a].dev.wide) hi_field[a] = nfields++;
  }
  std::vector<uint64_t> radix_root(sp.root_group_keys.size());
  std::vector<uint64_t> stride_root(sp.root_group_keys.size());
  float device_ms = 0;

  gpu::check_cuda(cudaEventRecord(ctx.start, ctx.stream), "cudaEventRecord");
  if (!nothing) {
    cudaStream_t s = ctx.stream;
    gpu::DeviceBuffer range_buf(std::max<uint64_t>(ranges.size() * 8, 8), "filter ranges");
    gpu::DeviceBuffer stats_buf(std::max<uint64_t>(dims.size() * 16, 16), "dimension counts");
    gpu::check_cuda(cudaMemsetAsync(stats_buf.get(), 0, stats_buf.bytes(), s), "cudaMemset");
    if (!ranges.empty()) {
      ctx.host.ensure(ranges.size() * 8);
      std::memcpy(ctx.host.get(), ranges.data(), ranges.size() * 8);
      gpu::check_cuda(cudaMemcpyAsync(range_buf.get(), ctx.host.get(), ranges.size() * 8, cudaMemcpyHostToDevice, s), "copy");
    }
    u64* counts = stats_buf.get<u64>();
    for (size_t i = 0; i < dims.size(); i++) {
      DimRun& r = dims[i];
      const StarDim& d = *r.dim;
      r.lookup = gpu::DeviceBuffer(r.K * 4, "a dimension lookup array");
      r.flags = gpu::DeviceBuffer(r.local * 4, "dimension group flags");
      r.dense = gpu::DeviceBuffer(r.local * 4, "dimension group codes");
      r.inv = gpu::DeviceBuffer(r.local * 4, "dimension group codes");
      gpu::check_cuda(cudaMemsetAsync(r.lookup.get(), 0xff, r.K * 4, s), "cudaMemset");
      gpu::check_cuda(cudaMemsetAsync(r.flags.get(), 0, r.local * 4, s), "cudaMemset");
      DimParams p;
      p.rows = d.key->size();
      p.key = r.key->dev;
      p.key_min = d.key->stats().min;
      p.key_range = r.K;
      p.nfilters = int(d.filters.size());
      for (size_t f = 0; f < d.filters.size(); f++) {
        p.filters[f].col = cache.get(d.filters[f].column, s).dev;
        p.filters[f].ranges = range_buf.get<uint64_t>() + range_at[i][f];
        p.filters[f].nranges = range_n[i][f];
      }
      p.ngroups = int(d.group_keys.size());
      for (size_t k = 0; k < d.group_keys.size(); k++) {
        const plan::Expr& g = *q.group_keys[size_t(d.group_keys[k])];
        p.groups[k].col = cache.get(q.tables[size_t(g.table_index)].table->column_ptr(size_t(g.column_index)), s).dev;
        p.groups[k].min = sp.key_specs[size_t(d.group_keys[k])].min;
        p.groups[k].mult = r.mult[k];
      }
      p.lookup = r.lookup.get<int32_t>();
      p.flags = r.flags.get<uint32_t>();
      p.passed = counts + 2 * i + 1;
      launch_dim_build(p, s);
      launch_dim_rank(r.flags.get<uint32_t>(), r.local, r.dense.get<int32_t>(), r.inv.get<int32_t>(), counts + 2 * i, s);
      // One local code (no GROUP BY key on this dimension): dense[0] = 0, the remap is the identity.
      if (r.local > 1) launch_dim_remap(r.lookup.get<int32_t>(), r.K, r.dense.get<int32_t>(), s);
      if (r.fk->dev.decode) {
        r.translated = gpu::DeviceBuffer(r.fk->host_decode.size() * 4, "a translated lookup array");
        launch_translate(r.lookup.get<int32_t>(), d.key->stats().min, r.K, r.fk->dev.decode, r.fk->host_decode.size(),
                         r.translated.get<int32_t>(), s);
      }
    }
    gpu::check_cuda(cudaEventRecord(ctx.dims_done, s), "cudaEventRecord");
    gpu::check_cuda(cudaMemcpyAsync(ctx.host.get(), counts, dims.size() * 16, cudaMemcpyDeviceToHost, s), "copy");
    gpu::check_cuda(cudaStreamSynchronize(s), "dimension kernels");
    uint64_t R = 1;
    for (size_t i = 0; i < dims.size(); i++) {
      dims[i].codes = ctx.host.get<u64>()[2 * i];
      dims[i].passed = ctx.host.get<u64>()[2 * i + 1];
      if (dims[i].codes == 0) nothing = true;
      dims[i].stride = R;
      R *= std::max<uint64_t>(dims[i].codes, 1);
    }
    for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
      radix_root[k] = fact[size_t(sp.root_group_cols[k])]->stored_range();
      stride_root[k] = R;
      R *= radix_root[k];
      if (R > (uint64_t(1) << 31))
        fail(ErrorKind::kNotImplemented,
             "not supported on the CUDA backend yet: a group range above 2^31 (GPU hash aggregation)");
    }
    if (!nothing) {
      StarParams p;
      p.rows = sp.root_rows;
      p.groups = R;
      p.ncols = int(fact.size());
      for (size_t c = 0; c < fact.size(); c++) p.cols[c] = fact[c]->dev;
      for (auto& f : sp.fact_filters) {
        auto sr = fact[size_t(f.fact_col)]->stored_ranges(f.ranges);
        if (sr.empty()) nothing = true;
        DevPred& dp = p.preds[p.npreds++];
        dp.col = f.fact_col;
        dp.nranges = int(sr.size());
        for (size_t k = 0; k < sr.size(); k++) dp.lo[k] = sr[k].first, dp.hi[k] = sr[k].second;
      }
      // Probe the most selective dimension first (exact counts from the dimension pass).
      std::vector<size_t> order(dims.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return double(dims[a].passed) / double(dims[a].dim->key->size()) <
               double(dims[b].passed) / double(dims[b].dim->key->size());
      });
      // Narrow lookups where the dimension's group codes allow (kernel_params.h:
      // DevJoin), unless RAYDB_CUDA_NARROW_LOOKUP=0.
      static const bool narrow_lookups = [] {
        const char* e = std::getenv("RAYDB_CUDA_NARROW_LOOKUP");
        return !(e && *e == '0');
      }();
      for (size_t i : order) {
        DimRun& r = dims[i];
        DevJoin& j = p.joins[p.njoins++];
        j.col = r.dim->fact_col;
        j.stride = r.stride;
        const int32_t* wide = nullptr;
        if (r.fk->dev.decode) {
          wide = r.translated.get<int32_t>();
          j.offset = 0;
          j.size = r.fk->host_decode.size();
        } else {
          wide = r.lookup.get<int32_t>();
          j.offset = r.fk->dev.base - r.dim->key->stats().min;  // stored + offset = key - key_min
          j.size = r.K;
        }
        j.lookup = wide;
        j.width = 4;
        {
          const __int128 off = j.offset, top = off + __int128(r.fk->stored_range()) - 1;
          j.idx32 = off >= -(__int128(1) << 31) && top < (__int128(1) << 32) && j.size <= (uint64_t(1) << 31) ? 1 : 0;
        }
        const int width = !narrow_lookups ? 4 : r.codes <= 254 ? 1 : r.codes <= 65534 ? 2 : 4;
        if (width < 4) {
          r.narrow = gpu::DeviceBuffer(j.size * uint64_t(width), "a narrowed lookup array");
          launch_narrow_lookup(wide, j.size, r.narrow.get(), width, s);
          j.lookup = r.narrow.get();
          j.width = width;
        }
      }
      for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
        DevRootGroup& g = p.root_groups[p.nroot_groups++];
        g.col = sp.root_group_cols[k];
        g.stride = stride_root[k];
      }
      p.naggs = int(sp.aggs.size());
      for (size_t a = 0; a < sp.aggs.size(); a++) p.aggs[a] = sp.aggs[a].dev;
      p.mode = ng == 0 ? 0 : 1;
      if (p.mode == 1 && star_shared_bytes(p) > kSharedLimit) p.mode = 2;
      gpu::DeviceBuffer acc(R * uint64_t(nfields) * 8, "group accumulators");
      u64* base = acc.get<u64>();
      gpu::check_cuda(cudaMemsetAsync(base, 0, acc.bytes(), s), "cudaMemset");
      p.acc.count = base;
      for (size_t a = 0; a < sp.aggs.size(); a++) {
        if (lo_field[a] < 0) continue;
        p.acc.lo[a] = base + uint64_t(lo_field[a]) * R;
        if (hi_field[a] >= 0) p.acc.hi[a] = base + uint64_t(hi_field[a]) * R;
        const int f = sp.aggs[a].dev.func;
        if (f == kAggMin) launch_fill(p.acc.lo[a], R, u64(INT64_MAX), s);
        if (f == kAggMax) launch_fill(p.acc.lo[a], R, u64(INT64_MIN), s);
      }
      gpu::check_cuda(cudaEventRecord(ctx.fact_start, s), "cudaEventRecord");
      if (!nothing) launch_star(p, s);
      gpu::check_cuda(cudaEventRecord(ctx.fact_done, s), "cudaEventRecord");
      gpu::check_cuda(cudaGetLastError(), "fact kernel launch");
      // Group codes of each dimension (dense rank -> local code), for decoding.
      uint64_t inv_words = 0;
      for (auto& r : dims) inv_words += r.codes;
      const uint64_t want = R * uint64_t(nfields) * 8 + inv_words * 4 + 64;
      if (R <= kCopyAllGroups) {
        ctx.host.ensure(want);
        gpu::check_cuda(cudaMemcpyAsync(ctx.host.get(), base, R * uint64_t(nfields) * 8, cudaMemcpyDeviceToHost, s), "copy");
      }
      char* inv_host = ctx.host.get<char>() + (R <= kCopyAllGroups ? R * uint64_t(nfields) * 8 : 0);
      gpu::DeviceBuffer compact_out, compact_ids, compact_n, field_ptrs;
      if (R > kCopyAllGroups) {
        compact_out = gpu::DeviceBuffer(R * uint64_t(nfields) * 8, "compacted groups");
        compact_ids = gpu::DeviceBuffer(R * 8, "compacted groups");
        compact_n = gpu::DeviceBuffer(8, "compacted groups");
        field_ptrs = gpu::DeviceBuffer(uint64_t(nfields) * 8, "compacted groups");
        std::vector<u64*> ptrs(static_cast<size_t>(nfields));
        for (int f = 0; f < nfields; f++) ptrs[size_t(f)] = base + uint64_t(f) * R;
        ctx.host.ensure(std::max<uint64_t>(inv_words * 4 + 64, uint64_t(nfields) * 8 + 8));
        inv_host = ctx.host.get<char>() + 64;
        std::memcpy(ctx.host.get(), ptrs.data(), size_t(nfields) * 8);
        gpu::check_cuda(cudaMemcpyAsync(field_ptrs.get(), ctx.host.get(), uint64_t(nfields) * 8, cudaMemcpyHostToDevice, s),
                   "copy");
        gpu::check_cuda(cudaMemsetAsync(compact_n.get(), 0, 8, s), "cudaMemset");
        launch_compact(field_ptrs.get<const u64* const>(), nfields, R, R, compact_out.get<u64>(), compact_ids.get<u64>(),
                       compact_n.get<u64>(), s);
        gpu::check_cuda(cudaStreamSynchronize(s), "compaction");  // ptrs must be read before host staging is reused
      }
      {
        uint64_t off = 0;
        for (auto& r : dims) {
          if (r.codes)
            gpu::check_cuda(cudaMemcpyAsync(inv_host + off * 4, r.inv.get(), r.codes * 4, cudaMemcpyDeviceToHost, s), "copy");
          off += r.codes;
        }
      }
      if (R > kCopyAllGroups) {
        u64 n = 0;
        gpu::check_cuda(cudaMemcpyAsync(ctx.host.get(), compact_n.get(), 8, cudaMemcpyDeviceToHost, s), "copy");
        gpu::check_cuda(cudaStreamSynchronize(s), "compaction");
        n = ctx.host.get<u64>()[0];
        // Move the inverse maps out of the way before the host buffer grows.
        std::vector<char> inv_copy(inv_host, inv_host + inv_words * 4);
        ctx.host.ensure(n * uint64_t(nfields + 1) * 8 + inv_words * 4 + 64);
        std::memcpy(ctx.host.get<char>() + n * uint64_t(nfields + 1) * 8, inv_copy.data(), inv_copy.size());
        inv_host = ctx.host.get<char>() + n * uint64_t(nfields + 1) * 8;
        for (int f = 0; f < nfields; f++)
          if (n)
            gpu::check_cuda(cudaMemcpyAsync(ctx.host.get<u64>() + uint64_t(f) * n, compact_out.get<u64>() + uint64_t(f) * R,
                                       n * 8, cudaMemcpyDeviceToHost, s),
                       "copy");
        if (n)
          gpu::check_cuda(cudaMemcpyAsync(ctx.host.get<u64>() + uint64_t(nfields) * n, compact_ids.get(), n * 8,
                                     cudaMemcpyDeviceToHost, s),
                     "copy");
        gpu::check_cuda(cudaEventRecord(ctx.stop, s), "cudaEventRecord");
        gpu::check_cuda(cudaStreamSynchronize(s), "result copy");
        fields.assign(size_t(nfields), {});
        const u64* h = ctx.host.get<u64>();
        std::vector<size_t> idx(n);
        std::iota(idx.begin(), idx.end(), 0);
        for (size_t i = 0; i < n; i++) present.push_back(h[uint64_t(nfields) * n + i]);
        for (int f = 0; f < nfields; f++) fields[size_t(f)].assign(h + uint64_t(f) * n, h + uint64_t(f) * n + n);
      } else {
        gpu::check_cuda(cudaEventRecord(ctx.stop, s), "cudaEventRecord");
        gpu::check_cuda(cudaStreamSynchronize(s), "fact kernel");
        fields.assign(size_t(nfields), {});
        const u64* h = ctx.host.get<u64>();
        for (uint64_t g = 0; g < R; g++) {
          if (h[g] == 0) continue;
          present.push_back(g);
          for (int f = 0; f < nfields; f++) fields[size_t(f)].push_back(h[uint64_t(f) * R + g]);
        }
      }
      uint64_t off = 0;
      for (auto& r : dims) {
        r.inv_host.assign(reinterpret_cast<int32_t*>(inv_host) + off, reinterpret_cast<int32_t*>(inv_host) + off + r.codes);
        off += r.codes;
      }
      gpu::check_cuda(cudaEventElapsedTime(&device_ms, ctx.start, ctx.stop), "cudaEventElapsedTime");
      if (ctx.profile) {
        float d = 0, gap = 0, k = 0, rest = 0;
        cudaEventElapsedTime(&d, ctx.start, ctx.dims_done);
        cudaEventElapsedTime(&gap, ctx.dims_done, ctx.fact_start);
        cudaEventElapsedTime(&k, ctx.fact_start, ctx.fact_done);
        cudaEventElapsedTime(&rest, ctx.fact_done, ctx.stop);
        std::fprintf(stderr,
                     "cuda profile: dims %.3f ms, sync+setup %.3f ms, fact kernel %.3f ms (mode %d, %llu groups), "
                     "result %.3f ms, total %.3f ms\n",
                     d, gap, k, p.mode, (unsigned long long)R, rest, device_ms);
      }
    }
  }
  if (nothing) {
    gpu::check_cuda(cudaEventRecord(ctx.stop, ctx.stream), "cudaEventRecord");
    gpu::check_cuda(cudaStreamSynchronize(ctx.stream), "query");
    gpu::check_cuda(cudaEventElapsedTime(&device_ms, ctx.start, ctx.stop), "cudaEventElapsedTime");
    present.clear();
    fields.assign(size_t(nfields), {});
  }
  const double gpu_wall_ms = timer.elapsed_ms() - upload_ms;

  // Decode group ids into packed key words (the CPU's KeyEncoder layout), in the
  // CPU's direct-aggregation order: ascending packed word.
  std::vector<Vector> key_vectors, agg_vectors;
  size_t n = 0;
  std::vector<uint32_t> order;
  std::optional<KeyEncoder> enc;
  std::vector<int64_t> words;
  if (ng > 0) {
    enc.emplace(sp.key_specs, result.interner.get());
    if (!enc->packed()) fail(ErrorKind::kInternal, "CUDA backend: group keys did not pack");
    std::vector<int64_t> packed(present.size(), 0);
    for (size_t i = 0; i < present.size(); i++) {
      const uint64_t g = present[i];
      uint64_t w = 0;
      for (auto& r : dims) {
        if (r.dim->group_keys.empty()) continue;
        const uint64_t local = uint64_t(r.inv_host[(g / r.stride) % r.codes]);
        for (size_t k = 0; k < r.dim->group_keys.size(); k++) {
          const int key = r.dim->group_keys[k];
          const uint64_t digit = (local / r.mult[k]) % key_range(sp.key_specs[size_t(key)]);
          w |= digit << sp.key_shifts[size_t(key)];
        }
      }
      for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
        const int key = sp.root_group_keys[k];
        const uint64_t digit = (g / stride_root[k]) % radix_root[k];
        const int64_t v = fact[size_t(sp.root_group_cols[k])]->value_of_stored(digit);
        w |= uint64_t(v - sp.key_specs[size_t(key)].min) << sp.key_shifts[size_t(key)];
      }
      packed[i] = int64_t(w);
    }
    order.resize(present.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return packed[a] < packed[b]; });
    n = order.size();
    for (uint32_t i : order) words.push_back(packed[i]);
    key_vectors = enc->decode(words.data(), n);
  } else {
    n = 1;  // one group, present even without rows
    order = {0};
    if (present.empty()) {
      present.push_back(0);
      for (int f = 0; f < nfields; f++) fields[size_t(f)].push_back(0);
    }
  }
  AggregateStates states(&q.aggregates, result.interner.get());
  states.resize(n);
  for (size_t a = 0; a < sp.aggs.size(); a++) {
    std::vector<int64_t> count(n);
    std::vector<__int128> sum;
    for (size_t i = 0; i < n; i++) count[i] = int64_t(fields[0][order[i]]);
    if (lo_field[a] >= 0) {
      sum.resize(n);
      for (size_t i = 0; i < n; i++) {
        const u64 lo = fields[size_t(lo_field[a])][order[i]];
        if (hi_field[a] >= 0) {
          const u64 hi = fields[size_t(hi_field[a])][order[i]];
          sum[i] = (__int128(int64_t(hi)) << 64) | __int128(lo);
        } else {
          sum[i] = __int128(int64_t(lo));
        }
      }
    }
    if (sp.aggs[a].func == AggFunc::kCountStar) continue;  // count alone
    states.load(a, std::move(count), std::move(sum), sp.aggs[a].kind, sp.aggs[a].dict, sp.aggs[a].arg_type);
  }
  // COUNT(*) states: loaded with the row counts too (load() sets count; sum unused).
  for (size_t a = 0; a < sp.aggs.size(); a++) {
    if (sp.aggs[a].func != AggFunc::kCountStar) continue;
    std::vector<int64_t> count(n);
    for (size_t i = 0; i < n; i++) count[i] = int64_t(fields[0][order[i]]);
    states.load(a, std::move(count), {}, VectorKind::kInt, nullptr, Type::bigint());
  }
  std::vector<uint32_t> gids(n);
  std::iota(gids.begin(), gids.end(), 0);
  for (size_t a = 0; a < q.aggregates.size(); a++) agg_vectors.push_back(states.finalize(a, gids));
  std::vector<Vector> outputs = finish_aggregation(q, std::move(key_vectors), std::move(agg_vectors), n);
  finish_rows(q, std::move(outputs), n, result);
  result.device_ms = device_ms;
  result.device_bytes = fact_bytes;
  result.profile = fmt::format("cuda: upload {:.2f} ms, device {:.3f} ms (host wall {:.3f} ms), fact bytes {}", upload_ms,
                               device_ms, gpu_wall_ms, fact_bytes);
  (void)options;
  return result;
}

}  // namespace

// Star plans run on the fused star kernels; every other supported shape (and a star
// plan whose data the star kernels turn down at run time) on the general path. The
// plan's analysis (cuda_plan_analysis.h) says which, computed when it was admitted.
ResultTable CudaExecutor::execute(const plan::PhysicalPlan& plan, const ExecOptions& options) {
  const std::shared_ptr<const CudaPlanAnalysis> a = analysis_of(plan);
  auto general_plan = [&]() {
    const bool paths = plan.has_index_paths();
    if (a->general && a->general_with_index_paths == paths) return *a->general;
    auto g = general::analyze_general(plan);
    if (auto* why = std::get_if<std::string>(&g))
      fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: {}", *why);
    return std::get<general::GeneralPlan>(std::move(g));
  };
  auto run_general = [&]() {
    general::GeneralPlan gp = general_plan();
    if (device_count() == 0) fail(ErrorKind::kNotImplemented, "no CUDA device: {}", no_device_reason());
    return general::GeneralExecutor::execute(plan, gp);
  };
  // [gpuidx] Plans with index scans or index joins run on the general path (index_steps.h).
  if (plan.has_index_paths() || !a->star) return run_general();
  try {
    return execute_star(plan, *a->star, options);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kNotImplemented || device_count() == 0) throw;
    if (!a->general && std::holds_alternative<std::string>(general::analyze_general(plan))) throw;
  }
  return run_general();
}

}  // namespace raydb::exec::cuda
