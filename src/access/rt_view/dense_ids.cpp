#include "access/rt_view/dense_ids.h"

#include <algorithm>

namespace raydb::rtview {

uint64_t densify(std::vector<uint32_t>& ids, const std::vector<uint32_t>& code, uint64_t count, uint64_t radix) {
  const int64_t n = static_cast<int64_t>(ids.size());
  const uint64_t range = count * radix;
  if (range <= std::max<uint64_t>(uint64_t{1} << 24, ids.size())) {  // mark array no larger than ids
    std::vector<uint32_t> mark(range, 0);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < n; ++r) __atomic_store_n(&mark[ids[size_t(r)] * radix + code[size_t(r)]], 1u, __ATOMIC_RELAXED);
    uint32_t next = 0;
    for (uint32_t& m : mark) m = m != 0 ? next++ : 0;  // the dense id (kept only where marked)
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < n; ++r) ids[size_t(r)] = mark[ids[size_t(r)] * radix + code[size_t(r)]];
    return next;
  }
  std::vector<uint64_t> keys(ids.size());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < n; ++r) keys[size_t(r)] = uint64_t{ids[size_t(r)]} * radix + code[size_t(r)];
  std::vector<uint64_t> distinct = keys;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < n; ++r)
    ids[size_t(r)] = static_cast<uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), keys[size_t(r)]) - distinct.begin());
  return distinct.size();
}

}  // namespace raydb::rtview
