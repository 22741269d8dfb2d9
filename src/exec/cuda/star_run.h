#pragma once
// One star query on the GPU (star_executor.cpp), as its phases share it:
//   star_dimensions: upload the columns, the dimension filter ranges, and per
//     dimension a lookup array (filter, rank the present group codes, remap);
//   star_fact_pass:  the fused fact kernel's parameters (predicates, probes most
//     selective first, narrowed lookups, group strides, aggregates) and its launch;
//   star_results:    the group accumulators copied back (compacted on the device when
//     the range is large), decoded into the CPU's key words and aggregate states.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/settings.h"
#include "exec/core/result_table.h"
#include "exec/cuda/column_cache.h"
#include "exec/cuda/dimension_cache.h"
#include "exec/cuda/kernels.h"
#include "exec/core/order_statistics/order_statistics.h"
#include "exec/cuda/star_blocks.h"
#include "exec/cuda/star_groups.h"
#include "exec/cuda/star_plan.h"
#include "exec/cuda/stream_plan.h"
#include "gpu/current_device.h"
#include "gpu/device_buffer.h"
#include "gpu/event.h"
#include "gpu/phase_marks.h"
#include "gpu/pinned_buffer.h"
#include "gpu/stream.h"

namespace raydb::exec::cuda {

using u64 = unsigned long long;

constexpr uint64_t kLocalCodeLimit = uint64_t(1) << 22;  // per-dimension group code range
constexpr uint64_t kCopyAllGroups = 16384;              // below this, copy accumulators without compaction
constexpr size_t kSharedLimit = 48 * 1024;              // shared accumulators per block

// The star path's stream, events and staging memory, created once per process on device 0.
struct StarContext {
  gpu::CurrentDevice device;  // first: what follows belongs to device 0
  gpu::Stream stream;
  gpu::Stream copy;  // streamed fact chunks' copies (star_stream.h), beside the kernels on `stream`
  gpu::Event start, stop;
  gpu::Event dims_done, fact_start, fact_done;  // cuda_profile phases
  gpu::PinnedBuffer host;                       // staging for small uploads and results
  gpu::PinnedBuffer counter;                    // the fact kernel's filtered-row count
  // The fact pass's small uploads (sets, trees), each at its own offset within one
  // query (StarRun::upload_at): from pageable memory a copy is staged by the driver
  // first, ~7 us inside the device time of a query with an IN list (H200).
  gpu::PinnedBuffer uploads;
  // Uploads too large for that area (key-set bitmaps: 15 MB over TPC-H SF 20's order
  // keys), staged here by a parallel copy instead of the driver's pageable path (about
  // 6 GB/s); grown on demand, each query's at its own offsets (StarRun::large_at).
  gpu::PinnedBuffer large_uploads;
  StarContext() {
    host.ensure(1 << 20);
    counter.ensure(8);
    uploads.ensure(256 << 10);
  }
  static StarContext& instance();
  // Destroys the process's context (its stream, events and pinned buffers); the next
  // instance() makes a new one. Only while no star query runs.
  static void release();
};

struct DimRun {
  const StarDim* dim = nullptr;
  const DeviceColumn* key = nullptr;
  const DeviceColumn* fk = nullptr;
  uint64_t K = 0;              // key range (lookup entries)
  uint64_t local = 1;          // local code range
  std::vector<uint64_t> mult;  // per group key of the dim
  // Built by this statement or reused (dimension_cache.h); codes and passed copied from it.
  std::shared_ptr<DimArrays> arrays;
  bool reused = false;
  uint64_t codes = 0, passed = 0;
  uint64_t stride = 0;
  std::vector<int32_t> inv_host;
};

struct HostColumn;
struct StreamRun;

struct StarRun {
  StarRun(const StarPlan& sp, const plan::LogicalQuery& q, const Settings& settings, const StreamPlan* stream)
      : sp(sp),
        q(q),
        settings(settings),
        ctx(StarContext::instance()),
        cache(ColumnCache::instance()),
        stream(stream),
        marks(settings.cuda_profile(), ctx.stream) {}

  const StarPlan& sp;
  const plan::LogicalQuery& q;
  const Settings& settings;
  StarContext& ctx;
  ColumnCache& cache;
  // Set when the fact columns stream through in chunks (stream_plan.h); then per fact
  // column its pinned host source, or null where it is resident on the device.
  const StreamPlan* stream = nullptr;
  std::vector<const HostColumn*> host_fact;
  std::shared_ptr<StreamRun> stream_run;  // the streamed pass's buffers and events (star_stream.h)

  std::vector<const DeviceColumn*> fact;
  // Per fact column, the width the fact launches read it packed at (setting
  // cuda_compression; 0: unpacked); empty when no launch read packed columns.
  std::vector<int> packed_bits;
  std::vector<DimRun> dims;
  bool nothing = false;  // no row can pass: the device work is skipped
  // The fact blocks the kernel reads (star_blocks.h), or unset: the whole table.
  std::optional<BlockSelection> blocks;

  uint64_t fact_filtered = 0;  // fact rows that passed the fact filters (kernel counter)
  std::vector<orderstat::OrderStats> order_stats;  // per aggregate (order statistics only), by group id
  std::vector<orderstat::KeyType> os_key_types;     // the keys each was selected on
  double order_stats_ms = 0;                       // their second pass and selection (host-timed)
  // Host time inside the device window (cuda_profile): the fact kernel's parameters
  // (sets, trees, filter passes) and the enqueueing of its pass.
  double params_host_ms = 0, enqueue_host_ms = 0;
  // Inside params: stored ranges of the fact filters, their device-set forms
  // (fact_set.h), and those sets' copies and allocations.
  double ranges_host_ms = 0, sets_host_ms = 0, set_uploads_host_ms = 0;
  std::string phases;          // device phase times (EXPLAIN ANALYZE, cuda_profile)
  int device_kept_terms = 0;   // HAVING terms the compaction applied (StarGroups::device_kept_terms)
  bool fields_left_on_device = false;  // only group ids came back (StarGroups::fields_left_on_device)
  gpu::PhaseMarks marks;       // cuda_profile: device/host time of each step, upload to decode

  // Long range sets of fact predicates (bitmaps or sorted pairs), alive for the launch.
  std::vector<gpu::DeviceBuffer> pred_sets;
  // Set when the filter passes count the rows that pass and the fact kernel, which
  // would only count them, is not launched (add_filter_passes).
  const unsigned long long* pass_count = nullptr;
  uint64_t upload_at = 0;  // bytes of StarContext::uploads this query has taken
  uint64_t large_at = 0;   // and of StarContext::large_uploads

  // Ranges of all dimension filters, uploaded in one copy: per dimension and filter,
  // where its ranges start and how many.
  std::vector<uint64_t> ranges;
  std::vector<std::vector<size_t>> range_at;
  std::vector<std::vector<int>> range_n;

  // Accumulator fields: count, then per aggregate its low word (and high word when wide).
  int nfields = 1;
  std::vector<int> lo_field, hi_field;
  // Group ids: mixed radix over the dimensions' dense codes, then the root group keys.
  uint64_t R = 1;
  std::vector<uint64_t> radix_root, stride_root;

  GroupIds present;     // group ids with rows
  GroupFields fields;   // per field, per present group
  float device_ms = 0;
};

// star_dimensions.cpp
void upload_star_columns(StarRun& r);
void collect_filter_ranges(StarRun& r);
void build_dimensions(StarRun& r);  // through the dimension counts on the host
void plan_root_groups(StarRun& r);

// star_fact_pass.cpp
void plan_accumulators(StarRun& r);
StarParams fact_params(StarRun& r);
void run_fact_pass(StarRun& r, StarParams& p, gpu::DeviceBuffer& acc);

// star_fact_launch.cpp: the fact kernel over r.blocks' ranges, one launch each, or over
// the whole table.
void launch_fact_kernel(StarRun& r, const StarParams& p);

// star_results.cpp
void copy_groups_back(StarRun& r, const StarParams& p, const gpu::DeviceBuffer& acc);
// k per group id (R entries) of a k-th value whose k is an expression of the other
// aggregates (count(*) / 2), evaluated over the groups with rows as HAVING would.
std::vector<int64_t> star_k_per_group(const StarRun& r, const plan::Expr& k_expr);
// star_order_stats: the order statistics' selections, after the groups are known.
void run_order_statistics(StarRun& r, const StarParams& p);
StarKnobs star_knobs(const Settings& settings);
// The most group ids the fact kernel aggregates per warp (mode 5; setting cuda_few_groups).
uint64_t few_groups_limit(const Settings& settings);
void finish_without_rows(StarRun& r);
// Groups decoded into the CPU's key words and aggregate states, then finished.
void decode_star_result(StarRun& r, ResultTable& result);

}  // namespace raydb::exec::cuda
