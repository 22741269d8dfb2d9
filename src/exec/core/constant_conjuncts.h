#pragma once
// Conjuncts without columns decide once, before any table is read, whether a query
// can return rows at all. Every backend asks this one function, so they agree.
#include "plan/physical/physical_plan.h"

namespace raydb::exec {

// False when the planner found a constant conjunct false or NULL (always_empty), or
// when one of the plan's column-free leftovers (root_residuals) evaluates so.
bool constant_conjuncts_pass(const plan::PhysicalPlan& plan);

}  // namespace raydb::exec
