#pragma once
// The one place a plan finds its backend: choose a backend -> its access paths ->
// execute -> fall back. Backends are tried in preference order (api/ puts CUDA before
// the CPU); a forced request takes only the named backend and reports its one-line
// reason when that backend cannot take the plan. Under `auto` a backend that turns the
// plan down (out of device memory, a shape it rejects at run time) passes it on to
// the next one. Each backend analyses the plan once, when it admits it.
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "exec/backend.h"

namespace raydb::exec {

struct ExecutionRequest {
  std::optional<plan::BackendKind> backend;  // forced; nullopt: the first backend that takes the plan
  AccessPolicy policy = AccessPolicy::kCost;
  int threads = 0;  // CPU threads the query may use (0: all), for Backend::defer's comparison
};

class QueryDriver {
 public:
  // `backends` in preference order; the last one must take every plan (the CPU).
  explicit QueryDriver(std::vector<std::shared_ptr<const Backend>> backends) : backends_(std::move(backends)) {}

  // Chooses the backend and the access paths (plan.backend, analysis, index paths,
  // rejected_backends), as EXPLAIN shows them.
  void prepare(plan::PhysicalPlan& plan, const ExecutionRequest& request, const std::vector<IndexOnTable>& indexes,
               const Settings& settings) const;
  // prepare, then execute on the chosen backend, falling back as described above.
  ResultTable run(plan::PhysicalPlan& plan, const ExecutionRequest& request, const std::vector<IndexOnTable>& indexes,
                  const ExecOptions& options) const;

  const std::vector<std::shared_ptr<const Backend>>& backends() const { return backends_; }

 private:
  // will_run: the plan is executed afterwards (run), so the backend may read ahead.
  size_t prepare_from(size_t first, plan::PhysicalPlan& plan, const ExecutionRequest& request,
                      const std::vector<IndexOnTable>& indexes, const Settings& settings, bool will_run) const;
  size_t admit_from(size_t first, plan::PhysicalPlan& plan, const ExecutionRequest& request,
                    const std::vector<IndexOnTable>& indexes, const Settings& settings) const;
  // device_lock, unless the backend plans this statement without it.
  std::unique_lock<std::mutex> planning_lock(const Backend& b, const std::vector<IndexOnTable>& indexes,
                                             const Settings& settings) const;

  // Held while a device backend (not the CPU) admits, prepares or runs a plan: GPU
  // queries from concurrent threads run one at a time (their caches assume one user).
  std::unique_lock<std::mutex> device_lock(const Backend& b) const;

  std::vector<std::shared_ptr<const Backend>> backends_;
  mutable std::mutex device_mutex_;
};

}  // namespace raydb::exec
