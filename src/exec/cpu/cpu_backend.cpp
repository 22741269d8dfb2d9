#include "exec/cpu/cpu_backend.h"

#include "exec/cpu/cpu_executor.h"
#include "exec/index/view_path.h"

namespace raydb::exec {

void CpuBackend::choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexOnTable>& indexes,
                                     AccessPolicy policy, const Settings& settings) const {
  // A view answers the whole query in one launch; then no table needs an index.
  if (views_ && plan.query->windows.empty()) choose_view(plan, *views_, policy, plan::ExecDevice::kCpu, rt_view_per_hit(settings));
  if (plan.view_scan) {
    plan.clear_index_paths();
    return;
  }
  std::vector<IndexCandidate> candidates;
  for (auto& ix : indexes) {
    IndexCandidate c;
    c.table = ix.table;
    c.column = ix.column;
    c.kind = ix.kind;
    c.columns = ix.columns;
    if (ix.kind == plan::IndexKind::kRtScan)
      c.build_scan = [catalog = indexes_, def = ix.definition, table = ix.data]() { return catalog->get_scan(def, table); };
    else
      c.build = [catalog = indexes_, def = ix.definition, table = ix.data]() { return catalog->get(def, table); };
    candidates.push_back(std::move(c));
  }
  AccessOptions o;
  o.policy = policy;
  o.paths = settings.index_paths();
  o.rt_scan_method = settings.rt_scan_method();
  o.rt_scan_adaptive_margin = settings.rt_scan_adaptive_margin();
  exec::choose_access_paths(plan, candidates, o);
}

ResultTable CpuBackend::execute(const plan::PhysicalPlan& plan, const ExecOptions& options) const {
  if (plan.view_scan) return run_view(plan, views_->tracer());
  return CpuExecutor::execute(plan, options);
}

}  // namespace raydb::exec
