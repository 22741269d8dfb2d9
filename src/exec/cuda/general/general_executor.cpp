// The general path's driver: build every join side, scan the root, probe the sides in
// the CPU's order, then aggregate or project. The operators live in scan_step,
// join_build / join_probe, group_step and project_step; they share one GeneralQuery.
#include "exec/cuda/general/general_executor.h"

#include <cstdio>
#include <memory>

#include "common/cancel.h"
#include "common/timer.h"
#include "exec/core/constant_conjuncts.h"
#include "exec/cuda/general/group_step.h"
#include "exec/cuda/general/host_values.h"
#include "exec/cuda/general/join_side.h"
#include "exec/cuda/general/project_step.h"
#include "exec/cuda/general/scan_step.h"
#include "gpu/current_device.h"
#include "gpu/event.h"
#include "gpu/stream.h"
#include "gpu/stream_wait.h"

namespace raydb::exec::cuda::general {

namespace {

// The general path's stream and timing events, created once per process on device 0.
struct Stream {
  gpu::CurrentDevice device;  // first: what follows belongs to device 0
  gpu::Stream s;
  gpu::Event start, stop;
};
Stream& stream() {
  static Stream* st = new Stream();
  return *st;
}

// Between the path's operators: a cancelled statement stops once the work already
// queued on the stream is done (its buffers are freed after it), with Error(kCancelled).
void stop_if_cancelled(const GeneralQuery& g) {
  if (!cancel_requested(current_cancel_flag())) return;
  gpu::check_cuda(cudaStreamSynchronize(g.s), "query");
  throw_if_cancelled();
}

// The joined rows of the query: every build side first (as the CPU builds them), then
// the root scan probed through them in the CPU's order. Constant conjuncts decide
// once whether anything can pass (as the CPU).
Tuples join_rows(GeneralQuery& g) {
  Tuples cur;
  if (!constant_conjuncts_pass(g.plan)) {
    cur.rows.resize(g.nt);
    cur.publish(g.s);
    return cur;
  }
  std::vector<std::unique_ptr<BuildSide>> sides;
  for (auto& j : g.gp.joins) {
    stop_if_cancelled(g);
    sides.push_back(build_join_side(g, j));
    g.marks.mark("build " + g.q.tables[size_t(j.build_table)].alias + (sides.back()->reused ? " (kept)" : ""));
  }
  stop_if_cancelled(g);
  cur = scan_table(g, g.gp.root);
  g.marks.mark(fmt::format("scan {} ({} rows)", g.q.tables[size_t(g.gp.root)].alias, cur.n));
  for (auto* side : order_join_sides(g, sides)) {
    stop_if_cancelled(g);
    // The CPU stops probing a batch once no row is left (later residuals never run).
    if (cur.n == 0) {
      cur.rows[size_t(side->j->build_table)] = gpu::DeviceBuffer(4, "row ids");
      continue;
    }
    probe_join_side(g, *side, cur);
    g.marks.mark(fmt::format("probe {} ({} rows)", g.q.tables[size_t(side->j->build_table)].alias, cur.n));
  }
  cur.publish(g.s);
  return cur;
}

}  // namespace

ResultTable GeneralExecutor::execute(const plan::PhysicalPlan& plan, const GeneralPlan& gp, const Settings& settings,
                                     bool keep_on_device) {
  Stream& st = stream();
  GeneralQuery g(plan, gp, settings, st.s);
  g.keep_on_device = keep_on_device;
  ResultTable result;
  result.interner = std::make_shared<StringInterner>();
  result.names = g.q.output_names;
  Timer timer;
  gpu::check_cuda(cudaEventRecord(st.start, g.s), "cudaEventRecord");
  const Tuples cur = join_rows(g);
  stop_if_cancelled(g);
  if (g.q.is_aggregate)
    aggregate_rows(g, cur, result);
  else
    project_rows(g, cur, result);
  detach_domains(gp, result);
  gpu::check_cuda(cudaEventRecord(st.stop, g.s), "cudaEventRecord");
  gpu::wait_cancellable(g.s, "query");
  float ms = 0;
  gpu::check_cuda(cudaEventElapsedTime(&ms, st.start, st.stop), "cudaEventElapsedTime");
  result.device_ms = ms;
  result.device_bytes = g.programs.bytes_read();
  if (g.marks.enabled()) std::fprintf(stderr, "cuda general phases (device/host ms): %s\n", g.marks.text().c_str());
  result.profile = fmt::format("cuda (general path): device {:.3f} ms, host wall {:.3f} ms, {} joined rows{}", ms,
                               timer.elapsed_ms(), cur.n, g.skipped);
  return result;
}

}  // namespace raydb::exec::cuda::general
