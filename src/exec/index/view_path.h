#pragma once
// The RT view access path: choosing a view for a planned query (every view of the
// catalog is matched; under --backend rt the first that answers is taken, under auto
// only when the cost model prices it below the star path) and running it: one RtView
// launch, its groups and aggregates as the shared finisher's input (HAVING, SELECT,
// ORDER BY, LIMIT), so results are the CPU backend's row for row.
#include <memory>

#include "exec/core/result_table.h"
#include "exec/index/access_path_chooser.h"
#include "exec/index/view_catalog.h"
#include "exec/index/view_matcher.h"
#include "common/settings.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec {

// The chosen view in the plan (plan::ViewScan::view).
class ChosenView final : public plan::ViewHandle {
 public:
  ViewMatch match;
};

// Sets plan.view_scan (or leaves it empty) and plan.rejected_views. kNoRt never takes
// a view. `device` is where the launch would run (its calibration prices it).
// per_hit_atomics: the launch accumulates per hit (rt_view_per_hit).
void choose_view(plan::PhysicalPlan& plan, const ViewCatalog& views, AccessPolicy policy, plan::ExecDevice device,
                 bool per_hit_atomics = false);

// The setting rt_view_accumulate: per_hit (RTCUDB's per-hit atomics, for benchmarks of
// the contention fix) or per_ray (the default); kInvalidInput for another value.
bool rt_view_per_hit(const Settings& settings);

// Runs a plan whose view_scan is set, on `tracer` (builds the view's BVH on first use).
ResultTable run_view(const plan::PhysicalPlan& plan, rt::Tracer& tracer);

}  // namespace raydb::exec
