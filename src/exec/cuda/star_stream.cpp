#include "exec/cuda/star_stream.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "common/stage_times.h"
#include "exec/cuda/host_column_cache.h"

namespace raydb::exec::cuda {

namespace {

// `p` for the chunk `c` in slot `slot`: streamed columns read the slot's buffers,
// resident ones their device copy from the chunk's first row.
StarParams chunk_params(const StarRun& r, const StarParams& p, RowRange c, std::vector<gpu::DeviceBuffer>& slot) {
  // Per-row arrays (filter pass bits, order statistics) are not made for streamed
  // passes: the planner refuses order statistics and the filter passes stay off.
  if (p.filter_bits || p.os_select || p.os_gids)
    fail(ErrorKind::kInternal, "a streamed fact pass with per-row arrays");
  StarParams q = p;
  q.rows = c.end - c.begin;
  for (int k = 0; k < q.ncols; k++) {
    if (r.host_fact[size_t(k)])
      q.cols[k].data = slot[size_t(k)].get();
    else
      q.cols[k].data = static_cast<const char*>(p.cols[k].data) + c.begin * uint64_t(p.cols[k].width);
  }
  return q;
}

float elapsed(const gpu::Event& a, const gpu::Event& b) {
  float ms = 0;
  gpu::check_cuda(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
  return ms;
}

}  // namespace

void launch_fact_streamed(StarRun& r, const StarParams& p) {
  const std::vector<RowRange> whole{RowRange{0, r.sp.root_rows}};
  const std::vector<RowRange> chunks = stream_chunks(r.blocks ? r.blocks->ranges : whole, r.stream->chunk_rows);
  if (chunks.empty()) return;
  const StarKnobs knobs = star_knobs(r.settings);
  cudaStream_t compute = r.ctx.stream, copy = r.ctx.copy;
  auto run = std::make_shared<StreamRun>();
  r.stream_run = run;
  const size_t nslots = std::min<size_t>(size_t(kStreamSlots), chunks.size());
  run->slots.resize(nslots);
  for (auto& slot : run->slots)
    for (size_t k = 0; k < r.fact.size(); k++)
      slot.push_back(r.host_fact[k] ? gpu::DeviceBuffer(r.stream->chunk_rows * uint64_t(r.fact[k]->dev.width),
                                                        "a streamed fact chunk")
                                    : gpu::DeviceBuffer());
  run->chunks = chunks.size();
  run->events.reset(new StreamChunkEvents[chunks.size()]);
  // The first copy after everything queued before on the compute stream (the chunk
  // buffers may be pool blocks its earlier work used).
  gpu::check_cuda(cudaEventRecord(run->ready, compute), "cudaEventRecord");
  gpu::check_cuda(cudaStreamWaitEvent(copy, run->ready, 0), "cudaStreamWaitEvent");
  for (size_t i = 0; i < chunks.size(); i++) {
    StreamChunkEvents& e = run->events[i];
    std::vector<gpu::DeviceBuffer>& slot = run->slots[i % nslots];
    const RowRange c = chunks[i];
    // The buffer's previous chunk must have been read by its kernel.
    if (i >= nslots) gpu::check_cuda(cudaStreamWaitEvent(copy, run->events[i - nslots].kernel_end, 0), "cudaStreamWaitEvent");
    gpu::check_cuda(cudaEventRecord(e.copy_start, copy), "cudaEventRecord");
    for (size_t k = 0; k < r.fact.size(); k++) {
      const HostColumn* h = r.host_fact[k];
      if (!h) continue;
      const uint64_t bytes = (c.end - c.begin) * uint64_t(h->meta.dev.width);
      gpu::check_cuda(cudaMemcpyAsync(slot[k].get(), h->at(c.begin), bytes, cudaMemcpyHostToDevice, copy),
                      "streamed chunk copy");
      run->bytes += bytes;
    }
    gpu::check_cuda(cudaEventRecord(e.copy_end, copy), "cudaEventRecord");
    gpu::check_cuda(cudaStreamWaitEvent(compute, e.copy_end, 0), "cudaStreamWaitEvent");
    gpu::check_cuda(cudaEventRecord(e.kernel_start, compute), "cudaEventRecord");
    launch_star(chunk_params(r, p, c, slot), knobs, compute);
    gpu::check_cuda(cudaEventRecord(e.kernel_end, compute), "cudaEventRecord");
  }
  StageTimes::instance().add_bytes(ByteCount::kToDevice, run->bytes);
}

std::string stream_profile(const StarRun& r) {
  if (!r.stream) return "";
  const StreamRun* run = r.stream_run.get();
  if (!run || run->chunks == 0)
    return fmt::format("streamed: {} chunks of {} rows planned, none copied (no row can pass)\n", r.stream->chunks,
                       r.stream->chunk_rows);
  double copy_ms = 0, kernel_ms = 0;
  for (size_t i = 0; i < run->chunks; i++) {
    copy_ms += elapsed(run->events[i].copy_start, run->events[i].copy_end);
    kernel_ms += elapsed(run->events[i].kernel_start, run->events[i].kernel_end);
  }
  const double pass_ms = elapsed(run->events[0].copy_start, run->events[run->chunks - 1].kernel_end);
  const double overlap_ms = std::max(0.0, copy_ms + kernel_ms - pass_ms);
  return fmt::format(
      "streamed: {} chunks of {} rows through {} buffers, {} bytes copied; copy {:.3f} ms, kernels {:.3f} ms, "
      "pass {:.3f} ms ({:.3f} ms overlapped, {:.0f}% of the shorter hidden), {:.2f} GB/s effective\n",
      run->chunks, r.stream->chunk_rows, run->slots.size(), run->bytes, copy_ms, kernel_ms, pass_ms, overlap_ms,
      100.0 * overlap_ms / std::max(1e-9, std::min(copy_ms, kernel_ms)), double(run->bytes) / (pass_ms * 1e6));
}

}  // namespace raydb::exec::cuda
