#include "access/rt_index/run_index.h"

namespace raydb::access {

std::vector<uint32_t> probe_order(std::span<const KeyRange> lookups) {
  std::vector<uint64_t> lows(lookups.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < lookups.size(); ++i) lows[i] = lookups[i].lo;
  std::vector<uint64_t> sorted;
  std::vector<uint32_t> order;
  sort_pairs(lows, sorted, order);
  return order;
}

void RunIndex::aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const {
  out.count.assign(lookups.size(), 0);
  out.sum.assign(lookups.size(), 0);
  for_each_lookup(lookups, [&](size_t i) {
    const Run r = find_run(lookups[i]);
    out.count[i] = r.end - r.begin;
    out.sum[i] = sk_.sum(r.begin, r.end);
  });
}

void RunIndex::materialize(std::span<const KeyRange> lookups, RowIdLists& out) const {
  // Count pass (the run is kept, so the write pass does not search again), exclusive
  // prefix sum, write pass.
  std::vector<Run> runs(lookups.size());
  std::vector<uint64_t> counts(lookups.size());
  for_each_lookup(lookups, [&](size_t i) {
    runs[i] = find_run(lookups[i]);
    counts[i] = runs[i].end - runs[i].begin;
  });
  exclusive_prefix_sum(counts, out.offsets);
  out.rows.resize(out.offsets.back());
#pragma omp parallel for schedule(dynamic, 1024)
  for (size_t i = 0; i < lookups.size(); ++i)
    std::copy(sk_.rows.begin() + runs[i].begin, sk_.rows.begin() + runs[i].end, out.rows.begin() + out.offsets[i]);
}

}  // namespace raydb::access
