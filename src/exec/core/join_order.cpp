#include "exec/core/join_order.h"

#include "common/error.h"

namespace raydb::exec {

namespace {

// The selectivity of taking step i next, counting the filtering steps it makes ready:
// a join to an unfiltered table (supplier) whose own joins filter (nation) drops rows
// once those run right after it, so it can go before a join that filters less.
double lookahead_selectivity(const std::vector<JoinOrderStep>& steps, const std::vector<bool>& used, size_t i,
                             uint64_t bound) {
  const uint64_t bit = uint64_t(1) << steps[i].table;
  double s = steps[i].selectivity;
  for (size_t j = 0; j < steps.size(); j++)
    if (j != i && !used[j] && (steps[j].depends_on & bit) && (steps[j].depends_on & ~(bound | bit)) == 0 &&
        steps[j].selectivity < 1.0)
      s *= steps[j].selectivity;
  return s;
}

}  // namespace

std::vector<size_t> order_join_steps(const std::vector<JoinOrderStep>& steps, int root) {
  std::vector<size_t> order;
  uint64_t bound = uint64_t(1) << root;
  std::vector<bool> used(steps.size(), false);
  while (order.size() < steps.size()) {
    int best = -1;
    double best_selectivity = 0;
    for (size_t i = 0; i < steps.size(); i++) {
      if (used[i] || (steps[i].depends_on & ~bound)) continue;
      const double s = lookahead_selectivity(steps, used, i, bound);
      if (best < 0 || s < best_selectivity) best = int(i), best_selectivity = s;
    }
    if (best < 0) fail(ErrorKind::kInternal, "join steps have unsatisfiable dependencies");
    used[size_t(best)] = true;
    bound |= uint64_t(1) << steps[size_t(best)].table;
    order.push_back(size_t(best));
  }
  return order;
}

size_t residual_step(uint64_t needs, const std::vector<JoinOrderStep>& steps, const std::vector<size_t>& order,
                     int root) {
  uint64_t bound = uint64_t(1) << root;
  for (size_t k = 0; k < order.size(); k++) {
    bound |= uint64_t(1) << steps[order[k]].table;
    if ((needs & ~bound) == 0) return k;
  }
  return order.size();
}

}  // namespace raydb::exec
