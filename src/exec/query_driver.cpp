#include "exec/query_driver.h"

#include "exec/index/rt_scan_stats.h"

#include "common/error.h"
#include "common/stage_times.h"
#include "common/timer.h"

#include <cstdio>
#include <cstdlib>
#include "plan/logical/columns_read.h"

namespace raydb::exec {

namespace {

// Errors that pass a plan on to the next backend under `auto`.
bool passes_on(const Error& e) { return e.kind() == ErrorKind::kOutOfMemory || e.kind() == ErrorKind::kNotImplemented; }

std::string note(const Backend& b, const std::string& why) {
  return std::string(plan::backend_kind_name(b.kind())) + ": " + why;
}

}  // namespace

std::unique_lock<std::mutex> QueryDriver::device_lock(const Backend& b) const {
  if (b.kind() == plan::BackendKind::kCpu) return {};
  return std::unique_lock<std::mutex>(device_mutex_);
}

std::unique_lock<std::mutex> QueryDriver::planning_lock(const Backend& b, const std::vector<IndexOnTable>& indexes,
                                                        const Settings& settings) const {
  if (b.plans_without_device_lock(indexes, settings)) return {};
  return device_lock(b);
}

// The first backend from `first` on that exists here, honours the access policy and
// admits the plan.
size_t QueryDriver::admit_from(size_t first, plan::PhysicalPlan& plan, const ExecutionRequest& request,
                               const std::vector<IndexOnTable>& indexes, const Settings& settings) const {
  for (size_t i = first; i < backends_.size(); i++) {
    const Backend& b = *backends_[i];
    if (request.backend && b.kind() != *request.backend) continue;
    plan.analysis.reset();
    auto lock = planning_lock(b, indexes, settings);
    // A forced backend says first that it has no device. Under `auto` the plan-only
    // checks come first: a plan handed on (unsupported, or sooner on the next backend)
    // never waits for the device probe (the CUDA driver's start-up, 100-140 ms).
    const bool probe_first = request.backend.has_value();
    std::optional<Rejection> why;
    if (probe_first) why = b.unavailable();
    if (!why && !b.honours(request.policy)) why = Rejection{ErrorKind::kNotImplemented, "no RT indexes on this backend here"};
    if (!why) why = b.admit(plan, settings);
    // `auto` alone: a backend that could run the plan may still hand it on when the
    // next one answers sooner end to end (e.g. the data is not on the GPU yet).
    if (!why && !request.backend && request.policy == AccessPolicy::kCost && i + 1 < backends_.size())
      why = b.defer(plan, settings, request.threads);
    if (!why && !probe_first) why = b.unavailable();
    if (!why) {
      plan.backend = b.kind();
      return i;
    }
    if (request.backend) fail(why->kind, "{}", why->reason);
    plan.rejected_backends.push_back(note(b, why->reason));
  }
  fail(ErrorKind::kInternal, "no backend takes this plan");
}

size_t QueryDriver::prepare_from(size_t first, plan::PhysicalPlan& plan, const ExecutionRequest& request,
                                 const std::vector<IndexOnTable>& indexes, const Settings& settings,
                                 bool will_run) const {
  // raydb query --timing: the stored bytes of the columns the query reads.
  if (first == 0 && plan.query) StageTimes::instance().add_bytes(ByteCount::kNeeded, plan::stored_bytes_read(*plan.query));
  for (size_t i = first;; i++) {
    // Planning reads no column: statistics come from the manifest (Column::stats).
    i = admit_from(i, plan, request, indexes, settings);
    // Before the backend, an index build or a worker thread reads a column
    // (plan/logical/columns_read.h); columns the backend checks while loading them
    // are left to it, unless an index may read them on the host first.
    if (plan.query) {
      const Backend& b = *backends_[i];
      plan::verify_columns_read(*plan.query, [&](const Column& c) {
        return indexes.empty() && b.verifies_while_loading(c, settings);
      });
    }
    // Reading ahead starts before the access paths, which may wait for the device.
    if (will_run) backends_[i]->prefetch(plan, settings);
    try {
      auto lock = planning_lock(*backends_[i], indexes, settings);
      backends_[i]->choose_access_paths(plan, indexes, request.policy, settings);
      return i;
    } catch (const Error& e) {
      // An index that cannot be built on this backend's device (out of device memory):
      // `auto` moves on; a forced backend reports it.
      if (request.backend || !passes_on(e)) throw;
      plan.rejected_backends.push_back(note(*backends_[i], e.what()));
    }
  }
}

void QueryDriver::prepare(plan::PhysicalPlan& plan, const ExecutionRequest& request,
                          const std::vector<IndexOnTable>& indexes, const Settings& settings) const {
  prepare_from(0, plan, request, indexes, settings, false);
}

ResultTable QueryDriver::run(plan::PhysicalPlan& plan, const ExecutionRequest& request,
                             const std::vector<IndexOnTable>& indexes, const ExecOptions& options) const {
  size_t first = 0;
  // RAYDB_TRACE_BLOCKS: admission (analysis, access paths), the device lock's wait and
  // the backend's run, per block.
  static const bool trace = std::getenv("RAYDB_TRACE_BLOCKS") != nullptr;
  Timer timer;
  {
    // --timing: the backends' admission and access paths (their device and verify
    // work nested inside counts as those stages).
    StageScope stage(Stage::kPlan);
    first = prepare_from(0, plan, request, indexes, options.settings, true);
  }
  for (size_t i = first;;) {
    try {
      // EXPLAIN ANALYZE: what the plan's RT scan paths did, before the executor's lines.
      reset_rt_scan_stats();
      const double prepared_ms = timer.elapsed_ms();
      auto lock = device_lock(*backends_[i]);
      const double locked_ms = timer.elapsed_ms();
      StageScope stage(Stage::kExecute);
      ExecOptions run_options = options;
      if (lock.owns_lock()) run_options.device_lock = &lock;
      ResultTable r = backends_[i]->execute(plan, run_options);
      r.profile = rt_scan_profile() + r.profile;
      if (trace)
        std::fprintf(stderr, "trace: driver prepare %.3f ms, device lock %.3f ms, backend execute %.3f ms\n",
                     prepared_ms, locked_ms - prepared_ms, timer.elapsed_ms() - locked_ms);
      return r;
    } catch (const Error& e) {
      // Out of device memory or a shape turned down at run time: `auto` runs the plan
      // on the next backend (with that backend's own access paths).
      if (request.backend || !passes_on(e) || i + 1 >= backends_.size()) throw;
      plan.rejected_backends.push_back(note(*backends_[i], e.what()));
      i = prepare_from(i + 1, plan, request, indexes, options.settings, true);
    }
  }
}

}  // namespace raydb::exec
