// A star query's results (star_run.h): accumulators and each dimension's group codes
// back on the host, then decoded by the host code of star_groups.h into the rows the
// CPU's direct aggregation gives.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "exec/cuda/group_keep.h"
#include "exec/cuda/star_decode_steps.h"
#include "exec/cuda/star_groups.h"
#include "exec/cuda/star_run.h"
#include "gpu/stream_wait.h"

namespace raydb::exec::cuda {

namespace {

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
  gpu::DeviceBuffer out, ids, n, field_ptrs, scratch;
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
  c.scratch = gpu::DeviceBuffer(compact_scratch_bytes(R), "compacted groups");
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
  gpu::check_cuda(launch_compact(c.field_ptrs.get<const u64* const>(), nfields, R, R, keep, c.out.get<u64>(),
                                 c.ids.get<u64>(), c.n.get<u64>(), c.scratch.get(), s),
                  "compaction");
  r.device_kept_terms = keep.nterms;
  gpu::check_cuda(cudaStreamSynchronize(s), "compaction");  // ptrs must be read before host staging is reused
  r.marks.mark("compaction");
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

StarGroups host_groups(const StarRun& r);

// The compacted groups to the host (after the inverse maps, moved out of the way
// before the staging buffer grows): their ids, and their accumulator fields unless the
// decode reads none (fields_unread). Returns where the inverse maps now are.
char* read_compacted(StarRun& r, const Compaction& c, char* inv_host, uint64_t inv_words) {
  cudaStream_t s = r.ctx.stream;
  StarContext& ctx = r.ctx;
  const int nfields = r.nfields;
  u64 n = 0;
  gpu::check_cuda(cudaMemcpyAsync(ctx.host.get(), c.n.get(), 8, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "compaction");
  n = ctx.host.get<u64>()[0];
  r.fields_left_on_device = r.settings.cuda_fast_decode() && fields_unread(host_groups(r), n);
  std::vector<char> inv_copy(inv_host, inv_host + inv_words * 4);
  ctx.host.ensure(n * uint64_t(nfields + 1) * 8 + inv_words * 4 + 64);
  std::memcpy(ctx.host.get<char>() + n * uint64_t(nfields + 1) * 8, inv_copy.data(), inv_copy.size());
  inv_host = ctx.host.get<char>() + n * uint64_t(nfields + 1) * 8;
  for (int f = 0; f < nfields; f++)
    if (n && !r.fields_left_on_device)
      gpu::check_cuda(cudaMemcpyAsync(ctx.host.get<u64>() + uint64_t(f) * n, c.out.get<u64>() + uint64_t(f) * r.R,
                                      n * 8, cudaMemcpyDeviceToHost, s),
                      "copy");
  if (n)
    gpu::check_cuda(
        cudaMemcpyAsync(ctx.host.get<u64>() + uint64_t(nfields) * n, c.ids.get(), n * 8, cudaMemcpyDeviceToHost, s),
        "copy");
  gpu::check_cuda(cudaEventRecord(ctx.stop, s), "cudaEventRecord");
  gpu::check_cuda(cudaStreamSynchronize(s), "result copy");
  r.marks.mark("compacted groups to the host");
  read_staged_groups(ctx.host.get<u64>(), n, nfields, !r.fields_left_on_device, r.present, r.fields);
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

// The host view of the result (star_groups.h): digits and fields, no device objects.
StarGroups host_groups(const StarRun& r) {
  StarGroups g;
  g.q = &r.q;
  g.sp = &r.sp;
  for (auto& d : r.dims) {
    GroupDimDigit digit;
    digit.group_keys = d.dim->group_keys;
    digit.mult = d.mult;
    digit.stride = d.stride;
    digit.codes = d.codes;
    digit.inv = &d.inv_host;
    g.dims.push_back(std::move(digit));
  }
  for (size_t k = 0; k < r.sp.root_group_keys.size(); k++) {
    const DeviceColumn& c = *r.fact[size_t(r.sp.root_group_cols[k])];
    GroupRootDigit digit;
    digit.stride = r.stride_root[k];
    digit.radix = r.radix_root[k];
    digit.base = int64_t(c.dev.base);
    digit.decode = c.dev.decode ? &c.host_decode : nullptr;
    g.roots.push_back(digit);
  }
  g.R = r.R;
  g.nfields = r.nfields;
  g.lo_field = r.lo_field;
  g.hi_field = r.hi_field;
  // Only decode_star_result changes them (through a StarRun it may change).
  g.present = const_cast<GroupIds*>(&r.present);
  g.fields = const_cast<GroupFields*>(&r.fields);
  g.order_stats = &r.order_stats;
  g.os_key_types = &r.os_key_types;
  g.device_kept_terms = r.device_kept_terms;
  g.fields_left_on_device = r.fields_left_on_device;
  return g;
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
  return star_groups_k_per_group(host_groups(r), k_expr, r.R);
}

void decode_star_result(StarRun& r, ResultTable& result) {
  StarGroups g = host_groups(r);
  // The general steps stay behind cuda_fast_decode=off as the fast ones' reference.
  DecodeSteps steps;
  decode_star_groups(g, result, r.settings.cuda_fast_decode() ? DecodeMode::kFast : DecodeMode::kGeneral,
                     r.settings.cuda_profile() ? &steps : nullptr);
  if (steps.ms.empty()) return;
  std::string text;
  for (auto& [name, ms] : steps.ms) text += fmt::format("{}{} {:.3f}", text.empty() ? "" : ", ", name, ms);
  std::fprintf(stderr, "cuda decode steps (ms): %s\n", text.c_str());
}

}  // namespace raydb::exec::cuda
