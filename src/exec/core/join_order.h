#pragma once
// The order in which a backend probes its join steps, shared by every backend so
// that they produce the same rows in the same order (and so raise the same errors):
// repeatedly the step with the smallest selectivity among those whose probe tables
// are bound (the first in plan order on ties), a step's selectivity multiplied by
// those below 1 of the steps it alone makes ready; each residual conjunct then runs at
// the first step after which all of its tables are bound.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace raydb::exec {

struct JoinOrderStep {
  int table = -1;            // the build table this step binds
  uint64_t depends_on = 0;   // tables its probe keys read (bit mask)
  double selectivity = 1.0;  // exact build-side selectivity, as the executor measured it
};

// Indices into `steps`, in probe order. Error(kInternal) when no order satisfies the
// dependencies.
std::vector<size_t> order_join_steps(const std::vector<JoinOrderStep>& steps, int root);

// The position in `order` (indices into `steps`) of the first step after which every
// table of `needs` is bound; order.size() when none is.
size_t residual_step(uint64_t needs, const std::vector<JoinOrderStep>& steps, const std::vector<size_t>& order,
                     int root);

}  // namespace raydb::exec
