#pragma once
// The CPU backend behind the seam (exec/backend.h): always available, runs every
// plan shape, with host-resident indexes (Embree for RT) from the database's index
// catalog, and RT views (RTCUDB) on Embree from the database's view catalog.
#include <memory>

#include "exec/backend.h"
#include "exec/index/index_catalog.h"
#include "exec/index/view_catalog.h"

namespace raydb::exec {

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(std::shared_ptr<IndexCatalog> indexes, std::shared_ptr<ViewCatalog> views = nullptr)
      : indexes_(std::move(indexes)), views_(std::move(views)) {}

  plan::BackendKind kind() const override { return plan::BackendKind::kCpu; }
  std::optional<Rejection> unavailable() const override { return std::nullopt; }
  bool honours(AccessPolicy) const override { return true; }
  std::optional<Rejection> admit(plan::PhysicalPlan&, const Settings&) const override { return std::nullopt; }
  void choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexOnTable>& indexes, AccessPolicy policy,
                           const Settings& settings) const override;
  ResultTable execute(const plan::PhysicalPlan& plan, const ExecOptions& options) const override;

 private:
  std::shared_ptr<IndexCatalog> indexes_;  // built host indexes, made on first use
  std::shared_ptr<ViewCatalog> views_;     // RT views (null: none), built on first use
};

}  // namespace raydb::exec
