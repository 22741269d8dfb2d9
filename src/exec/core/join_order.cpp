#include "exec/core/join_order.h"

#include "common/error.h"

namespace raydb::exec {

std::vector<size_t> order_join_steps(const std::vector<JoinOrderStep>& steps, int root) {
  std::vector<size_t> order;
  uint64_t bound = uint64_t(1) << root;
  std::vector<bool> used(steps.size(), false);
  while (order.size() < steps.size()) {
    int best = -1;
    for (size_t i = 0; i < steps.size(); i++) {
      if (used[i] || (steps[i].depends_on & ~bound)) continue;
      if (best < 0 || steps[i].selectivity < steps[size_t(best)].selectivity) best = int(i);
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
