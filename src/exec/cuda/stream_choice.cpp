// Whether a star query streams its fact columns (stream_plan.h), decided with the
// access paths when the budget is known: the columns not resident against the memory
// left, the chunk size from the budget and the setting, the chunks from data skipping.
#include <algorithm>

#include "common/error.h"
#include "common/settings.h"
#include "exec/cuda/column_cache.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "exec/cuda/star_blocks.h"

namespace raydb::exec::cuda {

namespace {

struct FactBytes {
  uint64_t total = 0;  // device bytes of the fact columns not resident
  uint64_t row = 0;    // of them per fact row
};

FactBytes streamed_fact_bytes(const StarPlan& sp) {
  FactBytes f;
  ColumnCache& cache = ColumnCache::instance();
  for (const ColumnPtr& c : sp.fact_columns) {
    if (cache.resident(c.get()) || c->size() == 0) continue;
    const uint64_t b = ColumnCache::estimate_bytes(*c);
    f.total += b;
    f.row += (b + c->size() - 1) / c->size();
  }
  return f;
}

// The dimension side's transient device memory: per dimension a 4-byte lookup entry
// per key value and its 1-2 byte narrowed copy (star_dimensions.cpp).
uint64_t lookup_bytes(const StarPlan& sp) {
  uint64_t b = 0;
  for (const StarDim& d : sp.dims) {
    const ColumnStats& s = d.key->stats();
    // Spans past 2^32 never run (size_lookup turns them down); capped against overflow.
    if (s.min <= s.max) b += std::min<uint64_t>(uint64_t(s.max) - uint64_t(s.min), uint64_t(1) << 32) * 6;
  }
  return b;
}

uint64_t free_bytes() {
  const MemoryStats m = memory_stats();
  return m.budget > m.in_use ? m.budget - m.in_use : 0;
}

// The order statistics' second pass reads the whole fact table on the device.
bool has_order_statistics(const StarPlan& sp) {
  return std::any_of(sp.aggs.begin(), sp.aggs.end(), [](const StarAgg& a) { return a.order_stat; });
}

}  // namespace

bool may_stream(const CudaPlanAnalysis& a, const Settings& settings) {
  const StreamMode mode = stream_mode(settings);
  if (!a.star || mode == StreamMode::kOff) return false;
  if (mode == StreamMode::kOn) return true;
  // Without a limit the budget is 90% of the device's free memory, read through a
  // device context: only once one exists.
  if (settings.gpu_memory_limit() == 0 && !device_in_use()) return false;
  return a.bytes_to_upload > free_bytes();
}

std::optional<StreamPlan> plan_streaming(const CudaPlanAnalysis& a, const plan::LogicalQuery& q,
                                         const Settings& settings) {
  const StreamMode mode = stream_mode(settings);
  if (!a.star || mode == StreamMode::kOff) return std::nullopt;
  const uint64_t free = free_bytes();
  if (mode == StreamMode::kAuto && a.bytes_to_upload <= free) return std::nullopt;
  const StarPlan& sp = *a.star;
  const FactBytes fact = streamed_fact_bytes(sp);
  if (mode == StreamMode::kAuto && fact.total == 0) return std::nullopt;  // nothing to stream: the budget check says why
  auto refuse = [&](const std::string& why) {
    if (mode == StreamMode::kOn)
      fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: streaming the fact columns: {}", why);
    fail(ErrorKind::kOutOfMemory,
         "the query's columns ({:.2f} GiB) do not fit the GPU memory budget ({:.2f} GiB free) and cannot stream: {}",
         double(a.bytes_to_upload) / (1 << 30), double(free) / (1 << 30), why);
  };
  if (has_order_statistics(sp))
    refuse("order statistics (median, quantiles, k-th values) read the fact table a second time");
  StreamBudget b;
  b.free_bytes = free;
  b.other_bytes = (a.bytes_to_upload > fact.total ? a.bytes_to_upload - fact.total : 0) + lookup_bytes(sp);
  b.row_bytes = fact.row;
  b.setting_rows = stream_chunk_setting(settings);
  const std::variant<uint64_t, std::string> rows = stream_chunk_rows(b);
  if (auto* why = std::get_if<std::string>(&rows)) refuse(*why);
  StreamPlan p;
  p.chunk_rows = std::get<uint64_t>(rows);
  p.row_bytes = fact.row;
  const std::optional<BlockSelection> blocks = fact_blocks(sp, q);
  const std::vector<RowRange> whole{RowRange{0, sp.root_rows}};
  for (const RowRange& c : stream_chunks(blocks ? blocks->ranges : whole, p.chunk_rows)) {
    p.chunks++;
    p.rows += c.end - c.begin;
  }
  return p;
}

}  // namespace raydb::exec::cuda
