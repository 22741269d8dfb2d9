#include "access/rt_view/dense_ids.h"

#include <parallel/algorithm>

#include <algorithm>
#include <atomic>

namespace raydb::rtview {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;

// True when every id has one code (the code is a function of the tuple prefix, as
// c_nation is of c_city): then the ids stay as they are. One parallel pass, memory of
// `count` words; stops being exact only if a code equals kUnset, which no dictionary
// code does (codes index a domain of at most 2^32 - 1 values).
bool code_follows_id(const std::vector<uint32_t>& ids, const std::vector<uint32_t>& code, uint64_t count) {
  std::vector<std::atomic<uint32_t>> first(count);
  for (auto& f : first) f.store(kUnset, std::memory_order_relaxed);
  std::atomic<bool> follows{true};
  const int64_t n = static_cast<int64_t>(ids.size());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < n; ++r) {
    if (!follows.load(std::memory_order_relaxed)) continue;
    uint32_t expected = kUnset;
    const uint32_t c = code[size_t(r)];
    std::atomic<uint32_t>& f = first[ids[size_t(r)]];
    if (!f.compare_exchange_strong(expected, c, std::memory_order_relaxed) && expected != c)
      follows.store(false, std::memory_order_relaxed);
  }
  return follows.load();
}

}  // namespace

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
  // A code that follows from the prefix adds no tuples, and the order of ids * radix +
  // code is the order of ids: nothing to renumber (SSB: a nation after its city).
  if (code_follows_id(ids, code, count)) return count;
  std::vector<uint64_t> keys(ids.size());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < n; ++r) keys[size_t(r)] = uint64_t{ids[size_t(r)]} * radix + code[size_t(r)];
  std::vector<uint64_t> distinct = keys;
  __gnu_parallel::sort(distinct.begin(), distinct.end());  // OpenMP threads
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < n; ++r)
    ids[size_t(r)] = static_cast<uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), keys[size_t(r)]) - distinct.begin());
  return distinct.size();
}

}  // namespace raydb::rtview
