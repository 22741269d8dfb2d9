#include "exec/cuda/star_executor.h"

#include <cstdio>
#include <mutex>

#include "common/cancel.h"
#include "common/error.h"
#include "common/timer.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/star_run.h"
#include "exec/cuda/star_stream.h"

namespace raydb::exec::cuda {

namespace {
std::mutex star_context_mutex;
StarContext* star_context = nullptr;  // never destroyed at exit: may outlive the CUDA context
}  // namespace

StarContext& StarContext::instance() {
  std::lock_guard<std::mutex> g(star_context_mutex);
  if (!star_context) star_context = new StarContext();
  return *star_context;
}

void StarContext::release() {
  std::lock_guard<std::mutex> g(star_context_mutex);
  delete star_context;
  star_context = nullptr;
}

namespace {

// The device part: dimensions, then the fact pass and its results, between the
// start and stop events. Skipped (only the events) when no row can pass.
void run_on_device(StarRun& r) {
  gpu::check_cuda(cudaEventRecord(r.ctx.start, r.ctx.stream), "cudaEventRecord");
  if (!r.nothing) {
    build_dimensions(r);
    r.marks.mark("dims");
    plan_root_groups(r);
    r.marks.mark("root groups");
    // Between the dimension kernels and the fact pass: a cancelled statement stops
    // once the queued work is done.
    if (cancel_requested(current_cancel_flag())) {
      gpu::check_cuda(cudaStreamSynchronize(r.ctx.stream), "query");
      throw_if_cancelled();
    }
    if (!r.nothing) {
      Timer host;
      StarParams p = fact_params(r);
      r.params_host_ms = host.elapsed_ms();
      r.marks.mark("params");
      host.reset();
      gpu::DeviceBuffer acc;
      run_fact_pass(r, p, acc);
      r.enqueue_host_ms = host.elapsed_ms();
      r.marks.mark("fact pass");
      copy_groups_back(r, p, acc);
      r.marks.mark("copy back");
      run_order_statistics(r, p);
      r.marks.mark("order stats");
    }
  }
  // A fact predicate found empty only while the kernel's parameters were made leaves
  // the kernel out but not the copies: its (empty) groups are replaced here.
  if (r.nothing) finish_without_rows(r);
}

// Data skipping: zone-map blocks read and skipped, as the CPU prints them, and the
// fact rows the kernel's launches covered.
std::string blocks_text(const StarRun& r) {
  if (!r.blocks) return "";
  const size_t launches = r.blocks->ranges.size();
  return fmt::format(", blocks: {} scanned, {} skipped ({} rows in {} launch{})", r.blocks->blocks - r.blocks->skipped,
                     r.blocks->skipped, r.blocks->rows(), launches, launches == 1 ? "" : "es");
}

// EXPLAIN ANALYZE: rows through each operator of the star plan, device phases.
std::string profile_text(const StarRun& r, double upload_ms, double gpu_wall_ms, uint64_t fact_bytes) {
  const plan::LogicalQuery& q = r.q;
  uint64_t aggregated = 0;
  if (!r.fields.empty())
    for (u64 c : r.fields[0]) aggregated += c;
  // The counts stayed on the device when nothing after the compaction read them.
  const std::string probed = r.fields_left_on_device ? "(not counted)" : std::to_string(aggregated);
  std::string s;
  for (auto& d : r.dims)
    s += fmt::format("dimension {}: {} rows, {} passed filters, {} group codes{}\n", q.tables[size_t(d.dim->table)].alias,
                     d.dim->key->size(), d.passed, d.codes, d.reused ? " (arrays reused)" : "");
  s += fmt::format("fact {}: {} rows, {} passed fact filters, {} passed probes, {} groups{}\n",
                   q.tables[size_t(r.sp.root)].alias, r.sp.root_rows, r.nothing ? 0 : r.fact_filtered, probed,
                   r.present.empty() ? 0 : r.present.size(), blocks_text(r));
  int packed = 0;
  for (int bits : r.packed_bits) packed += bits ? 1 : 0;
  s += fmt::format("cuda star kernels: upload {:.2f} ms, device {:.3f} ms (host wall {:.3f} ms), fact bytes {}{}\n",
                   upload_ms, r.device_ms, gpu_wall_ms, fact_bytes,
                   packed ? fmt::format(" ({} columns bit-packed)", packed) : std::string());
  s += stream_profile(r);
  if (!r.phases.empty()) s += "device phases: " + r.phases;
  if (r.order_stats_ms > 0) s += fmt::format("\norder statistics: group pass and selection {:.3f} ms", r.order_stats_ms);
  return s;
}

}  // namespace

ResultTable execute_star(const plan::PhysicalPlan& plan, const StarPlan& sp, const ExecOptions& options,
                         const StreamPlan* stream) {
  if (device_count() == 0) fail(ErrorKind::kNotImplemented, "no CUDA device: {}", no_device_reason());
  StarRun r(sp, *plan.query, options.settings, stream);
  Timer timer;
  ResultTable result;
  result.interner = std::make_shared<StringInterner>();
  result.names = r.q.output_names;

  throw_if_cancelled();
  upload_star_columns(r);
  throw_if_cancelled();
  const double upload_ms = timer.elapsed_ms();
  r.marks.mark("upload");
  // Data skipping: decided on the host from zone maps (also when no row can pass, for
  // EXPLAIN ANALYZE); with every block skipped no row can pass.
  r.blocks = fact_blocks(sp, r.q);
  if (r.blocks && r.blocks->ranges.empty()) r.nothing = true;
  r.marks.mark("blocks");
  collect_filter_ranges(r);
  r.marks.mark("ranges");
  plan_accumulators(r);
  r.marks.mark("accumulators");
  run_on_device(r);
  // The fact bytes the kernel's launches cover (the bandwidth floor `raydb bench`
  // prints): packed columns at their bits per row.
  const uint64_t read_rows = r.blocks ? r.blocks->rows() : sp.root_rows;
  uint64_t fact_bytes = 0;
  for (size_t c = 0; c < r.fact.size(); c++) {
    const int bits = c < r.packed_bits.size() ? r.packed_bits[c] : 0;
    fact_bytes += bits ? (read_rows * uint64_t(bits) + 7) / 8 : read_rows * uint64_t(r.fact[c]->dev.width);
  }
  const double gpu_wall_ms = timer.elapsed_ms() - upload_ms;
  // The device work is done and its results are on the host (decoding reads no device
  // state): the next statement may use the GPU while this one decodes. A fixed host
  // cost per statement, so on shards it limits scale-out when held under the lock.
  if (options.device_lock && options.device_lock->owns_lock()) options.device_lock->unlock();

  Timer decode;
  decode_star_result(r, result);
  // cuda_profile: the host's part after the stop event (group ids to rows), which the
  // device phases above do not show.
  if (r.marks.enabled()) std::fprintf(stderr, "cuda star steps (device/host ms): %s\n", r.marks.text().c_str());
  if (r.settings.cuda_profile())
    std::fprintf(stderr, "cuda decode: %.3f ms for %zu groups (host wall before it %.3f ms)\n", decode.elapsed_ms(),
                 r.present.size(), gpu_wall_ms);
  // Order statistics run after the stop event (a second pass and the selection):
  // their host-timed span counts as device time too.
  result.device_ms = r.device_ms + r.order_stats_ms;
  result.device_bytes = fact_bytes;
  result.profile = profile_text(r, upload_ms, gpu_wall_ms, fact_bytes);
  return result;
}

}  // namespace raydb::exec::cuda
