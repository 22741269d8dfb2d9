#pragma once
#include <memory>

#include "plan/physical/physical_plan.h"

namespace raydb::plan {

struct PlannerOptions {
  BackendKind backend = BackendKind::kCpu;  // resolved backend (auto resolved by the caller)
};

// Classifies conjuncts (single-table filters, equi-join edges, residuals, constants),
// picks the probe root (the largest table), and orders the joins so that every step
// is connected to the tables already bound, most selective first.
PhysicalPlan plan_query(std::shared_ptr<const LogicalQuery> query, const PlannerOptions& options);

}  // namespace raydb::plan
