#pragma once
// The CUDA backend behind the seam (exec/backend.h); the devices, memory and executor
// it drives are in cuda_device.h. Host code only (the seam is C++20).
#include <optional>
#include <vector>

#include "exec/backend.h"
#include "exec/cuda/cuda_device.h"
#include "exec/index/view_catalog.h"

namespace raydb::exec::cuda {

// The CUDA backend behind the seam (exec/backend.h): star kernels or the general path,
// GPU-resident indexes (rt-gpu needs OptiX), the accounted device memory budget.
class CudaBackend final : public Backend {
 public:
  // `views`: the database's RT views, run on OptiX where it is built (null: none).
  explicit CudaBackend(std::shared_ptr<ViewCatalog> views = nullptr) : views_(std::move(views)) {}
  plan::BackendKind kind() const override { return plan::BackendKind::kCuda; }
  std::optional<Rejection> unavailable() const override;
  // kForceRt only where RT indexes can live on the GPU (OptiX); elsewhere the RT
  // policy goes to the CPU backend and Embree.
  bool honours(AccessPolicy policy) const override;
  std::optional<Rejection> admit(plan::PhysicalPlan& plan, const Settings& settings) const override;
  // Columns not on the device yet: hands a one-shot query to the CPU when moving them
  // costs more than the CPU's whole run (plan/physical/transfer_cost.h).
  std::optional<Rejection> defer(const plan::PhysicalPlan& plan, const Settings& settings, int threads) const override;
  // fast_load: a column with a narrowed file is checksummed while it is copied up.
  bool verifies_while_loading(const Column& c, const Settings& settings) const override;
  // Setting prefetch: the plan's narrowed files read ahead while the GPU context is made.
  void prefetch(plan::PhysicalPlan& plan, const Settings& settings) const override;
  void choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexOnTable>& indexes, AccessPolicy policy,
                           const Settings& settings) const override;
  // Without indexes, RT views or a gpu_memory_limit of the statement's own, planning only
  // reads the plan, the column cache and the memory pool (each locked on its own).
  bool plans_without_device_lock(const std::vector<IndexOnTable>& indexes, const Settings& settings) const override;
  ResultTable execute(const plan::PhysicalPlan& plan, const ExecOptions& options) const override;

 private:
  std::shared_ptr<ViewCatalog> views_;
};

}  // namespace raydb::exec::cuda
