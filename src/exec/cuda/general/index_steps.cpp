#include "exec/cuda/general/index_steps.h"

#include <atomic>

#include "access/gpu/gpu_indexes.h"
#include "common/error.h"
#include "common/timer.h"
#include "exec/core/column_predicate.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/index_kernels.h"
#include "exec/cuda/gpu_index_catalog.h"
#include "access/rt_scan/gpu_scan_index.h"
#include "exec/index/built_index.h"
#include "exec/index/built_scan_index.h"
#include "exec/index/index_access.h"
#include "exec/index/rt_scan_chooser.h"
#include "exec/index/rt_scan_stats.h"
#include "exec/index/scan_method_timings.h"

namespace raydb::exec::cuda {

namespace {
std::atomic<uint64_t> g_scans{0}, g_joins{0}, g_lookups{0};
}  // namespace

GpuIndexUse gpu_index_use() { return GpuIndexUse{g_scans.load(), g_joins.load(), g_lookups.load()}; }

}  // namespace raydb::exec::cuda

namespace raydb::exec::cuda::general {

namespace {

constexpr uint64_t kMaxRows = (uint64_t(1) << 31) - 1;  // CUB's int item counts

struct GpuIndexRef {
  const BuiltIndex* built;
  const access::GpuResidentIndex* gpu;
};

GpuIndexRef gpu_index_of(const plan::IndexHandle* handle) {
  const auto* built = dynamic_cast<const BuiltIndex*>(handle);
  const auto* gpu = built ? dynamic_cast<const access::GpuResidentIndex*>(&built->index()) : nullptr;
  if (!gpu)
    fail(ErrorKind::kInternal, "index {} on the CUDA backend is not GPU-resident", handle ? handle->name : "(none)");
  return {built, gpu};
}

// One count pass of `bounds` (n lookups on the device), the prefix sum of the counts,
// and the runs expanded into row ids (and the lookup of each, when `src` is wanted).
uint64_t lookup_and_expand(const GpuIndexRef& ix, const gpu::DeviceBuffer& bounds, uint64_t n, cudaStream_t s,
                           gpu::DeviceBuffer& rows, gpu::DeviceBuffer* src) {
  if (n >= (uint64_t(1) << 32)) fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: 2^32 index lookups in one step");
  const uint64_t n1 = std::max<uint64_t>(n, 1);
  gpu::DeviceBuffer count(n1 * 8, "index lookup counts"), offsets(n1 * 8, "index lookup offsets");
  gpu::DeviceBuffer runs(n1 * sizeof(rt::mapping::KeyRun), "index lookup runs");
  ix.gpu->find_runs(bounds.get<uint64_t>(), uint32_t(n), count.get<uint64_t>(), runs.get<rt::mapping::KeyRun>(), s);
  const uint64_t total =
      n == 0 ? 0 : exclusive_sum_u64(count.get<unsigned long long>(), offsets.get<unsigned long long>(), n, s);
  if (total > kMaxRows)
    fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: an index step producing 2^31 rows or more");
  rows = gpu::DeviceBuffer(std::max<uint64_t>(total, 1) * 4, "row ids");
  if (src) *src = gpu::DeviceBuffer(std::max<uint64_t>(total, 1) * 4, "join pairs");
  // count, offsets and runs go back to the pool while the expansion is queued: reuse
  // on this stream is ordered after it, and the next index call synchronizes it first.
  launch_expand_runs(offsets.get<unsigned long long>(), runs.get<rt::mapping::KeyRun>(), n, ix.gpu->device_rows(),
                     total, rows.get<uint32_t>(), src ? src->get<uint32_t>() : nullptr, s);
  g_lookups.fetch_add(n);
  return total;
}

}  // namespace

bool answered_by_index(const CompiledProgram& filter, const plan::IndexScan& scan) {
  // A program computes its root last (postfix); anything else is simply applied.
  if (filter.source.empty()) return false;
  if (filter.source.back() == scan.predicate.get()) return true;
  // An RT scan path answers each filter it covers exactly (every method gives the bits
  // of the filters' stored-value ranges).
  for (auto& c : scan.covered)
    if (filter.source.back() == c.get()) return true;
  return false;
}

bool has_index_paths(const plan::PhysicalPlan& plan) {
  for (auto& s : plan.index_scans)
    if (s) return true;
  for (auto& j : plan.joins)
    if (j.index_join) return true;
  return false;
}

namespace {

// An RT scan path: the GPU-resident index writes the covered filters' bit vector into
// device memory, whose set bits become the row ids, ascending (the scan's order).
DeviceRowIds rt_scan_rows(const plan::IndexScan& scan, const plan::LogicalQuery& q, cudaStream_t s) {
  const RtScanQuery rq = rt_scan_query(scan, q);
  const auto* gpu = dynamic_cast<const access::rt_scan::GpuScanIndex*>(&rq.index->index());
  if (!gpu) fail(ErrorKind::kInternal, "RT scan index {} on the CUDA backend is not GPU-resident", rq.index->name);
  // The index works on the legacy stream and takes memory from the pool, which hands
  // out blocks that work queued on `s` (a non-blocking stream) may still use: the pool
  // orders reuse within a stream only. Finish `s` first. Without this, the joins and
  // filters queued before the scan were overwritten whenever the device lagged the host
  // (seen as wrong groups under compute-sanitizer, which slows kernels down).
  gpu::check_cuda(cudaStreamSynchronize(s), "rt scan");
  const uint64_t n_words = (rq.index->rows + 63) / 64;
  gpu::DeviceBuffer words(std::max<uint64_t>(n_words, 1) * 8, "rt scan bits");
  access::rt_scan::ScanQueryStats st;
  // Completes before it returns (it synchronizes the device), so `s` sees the bits.
  Timer timer;
  gpu->evaluate_device(rq.expr, rq.method, words.get<uint64_t>(), &st);
  // A near-tie between two methods' estimates: this run's time settles the choice.
  if (!scan.timing_key.empty()) ScanMethodTimings::shared().record(scan.timing_key, scan.scan_method, timer.elapsed_ms());
  record_rt_scan(rq.index->name, access::rt_scan::scan_method_name(rq.method), st);
  const uint64_t n1 = std::max<uint64_t>(n_words, 1);
  gpu::DeviceBuffer counts(n1 * 8, "rt scan word counts"), offsets(n1 * 8, "rt scan word offsets");
  launch_word_counts(words.get<uint64_t>(), n_words, counts.get<unsigned long long>(), s);
  const uint64_t total =
      n_words == 0 ? 0 : exclusive_sum_u64(counts.get<unsigned long long>(), offsets.get<unsigned long long>(), n_words, s);
  DeviceRowIds out;
  out.n = total;
  out.rows = gpu::DeviceBuffer(std::max<uint64_t>(total, 1) * 4, "row ids");
  launch_expand_words(words.get<uint64_t>(), offsets.get<unsigned long long>(), n_words, out.rows.get<uint32_t>(), s);
  g_scans.fetch_add(1);
  return out;
}

}  // namespace

DeviceRowIds index_scan_rows(const plan::IndexScan& scan, const plan::LogicalQuery& q, cudaStream_t s) {
  if (scan.index && scan.index->kind == plan::IndexKind::kRtScan) return rt_scan_rows(scan, q, s);
  const GpuIndexRef ix = gpu_index_of(scan.index.get());
  auto pred = ColumnPredicate::compile(*scan.predicate, q);
  if (!pred || &pred->column() != &ix.built->key_column())
    fail(ErrorKind::kInternal, "index scan predicate {} is not on the indexed column", scan.predicate->to_string());
  auto lookups = scan_lookups(*ix.built, *pred);
  if (!lookups) fail(ErrorKind::kInternal, "index {} cannot answer {}", ix.built->name, scan.predicate->to_string());
  const uint64_t n = lookups->size();
  gpu::DeviceBuffer bounds(std::max<uint64_t>(n, 1) * sizeof(access::KeyRange), "index lookups");
  if (n)
    gpu::check_cuda(cudaMemcpyAsync(bounds.get(), lookups->data(), n * sizeof(access::KeyRange), cudaMemcpyHostToDevice, s),
               "upload");
  DeviceRowIds out;
  gpu::DeviceBuffer rows;
  out.n = lookup_and_expand(ix, bounds, n, s, rows, nullptr);
  // Rows of one key are ascending (the index's sort is stable); several keys or
  // ranges interleave, and sorting restores the scan's order. Lookups are disjoint,
  // so no row appears twice.
  const bool one_point = n == 1 && (*lookups)[0].lo == (*lookups)[0].hi;
  if (one_point || out.n <= 1) {
    out.rows = std::move(rows);
  } else {
    out.rows = gpu::DeviceBuffer(out.n * 4, "row ids");
    sort_row_ids(rows.get<uint32_t>(), out.rows.get<uint32_t>(), out.n, ix.built->rows, s);
  }
  g_scans.fetch_add(1);
  return out;
}

DeviceJoinPairs index_join_pairs(const plan::IndexJoin& join, const __int128* probe_values,
                                 const uint8_t* probe_nulls, uint64_t n, cudaStream_t s) {
  const GpuIndexRef ix = gpu_index_of(join.index.get());
  ProbeCodec codec = ProbeCodec::kSigned64;
  switch (ix.built->key_type()) {
    case access::KeyType::kInt32:
    case access::KeyType::kDate: codec = ProbeCodec::kSigned32; break;
    case access::KeyType::kInt64: codec = ProbeCodec::kSigned64; break;
    case access::KeyType::kDictCode: codec = ProbeCodec::kUnsigned32; break;
    default: fail(ErrorKind::kInternal, "index {}: key type {} in SQL", ix.built->name, access::key_type_name(ix.built->key_type()));
  }
  gpu::DeviceBuffer bounds(std::max<uint64_t>(n, 1) * 16, "index probes");
  launch_probe_bounds(probe_values, probe_nulls, n, codec, bounds.get<unsigned long long>(), s);
  DeviceJoinPairs out;
  out.n = lookup_and_expand(ix, bounds, n, s, out.rows, &out.src);
  g_joins.fetch_add(1);
  return out;
}

}  // namespace raydb::exec::cuda::general
