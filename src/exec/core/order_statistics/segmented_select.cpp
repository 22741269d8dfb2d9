// Many groups: per-group histograms would not fit in cache, so the counting keys are
// scattered into one contiguous segment per group (a counting pass for the segment
// sizes, then a scatter pass, both parallel with per-part offsets), and every segment
// is then handled on its own, in parallel over groups: sorted (the sort baseline,
// also the ungrouped one with a single segment) or radix-selected in cache.
#include <omp.h>

#include <algorithm>

#include "common/error.h"
#include "exec/core/order_statistics/algorithms.h"
#include "exec/core/order_statistics/array_select.h"
#include "exec/core/order_statistics/scan.h"

namespace raydb::exec::orderstat::detail {

namespace {

// The keys of every group in one array, group g at [start[g], start[g + 1]).
template <class K>
std::vector<K> scatter_by_group(const ColumnInput& in, int threads, std::vector<uint64_t>& start) {
  const uint32_t groups = in.groups;
  const int nparts = parts(in.n, threads);
  std::vector<std::vector<uint64_t>> at(static_cast<size_t>(nparts));  // per part: counts, then write positions
  parallel_ranges(in.n, threads, [&](int p, uint64_t b, uint64_t e) {
    auto& c = at[size_t(p)];
    c.assign(groups, 0);
    auto f = [&](uint64_t, auto, uint32_t g) { c[g]++; };
    scan_range(in, b, e, f);
  });
  start.assign(size_t(groups) + 1, 0);
  uint64_t running = 0;
  for (uint32_t g = 0; g < groups; g++) {
    start[g] = running;
    for (auto& c : at) {
      const uint64_t k = c[g];
      c[g] = running;
      running += k;
    }
  }
  start[groups] = running;
  std::vector<K> keys(running);
  parallel_ranges(in.n, threads, [&](int p, uint64_t b, uint64_t e) {
    uint64_t* pos = at[size_t(p)].data();
    auto f = [&](uint64_t, auto key, uint32_t g) { keys[pos[g]++] = K(key); };
    scan_range(in, b, e, f);
  });
  return keys;
}

template <class K>
void segmented_select_t(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, bool sort,
                        int threads, std::vector<uint64_t>& out) {
  std::vector<uint64_t> start;
  std::vector<K> keys = scatter_by_group<K>(in, threads, start);
  const int bits = key_bits(in.type);
  bool beyond = false;
#pragma omp parallel for schedule(dynamic, 16) num_threads(thread_count(threads)) reduction(|| : beyond)
  for (uint32_t g = 0; g < in.groups; g++) {
    K* seg = keys.data() + start[g];
    const uint64_t size = start[g + 1] - start[g];
    std::vector<RankRequest> reqs;
    for (uint32_t j = 0; j < m; j++) {
      const uint64_t r = ranks[size_t(g) * m + j];
      if (r == kNoRank) continue;
      if (r >= size) beyond = true;
      else reqs.push_back({r, &out[size_t(g) * m + j]});
    }
    if (reqs.empty()) continue;
    if (sort) {
      std::sort(seg, seg + size);
      for (const RankRequest& r : reqs) *r.out = seg[r.rank];
    } else if (size <= kPartialSortKeys) {  // in place: no copy of a small segment
      select_by_partial_sort(seg, seg + size, std::move(reqs));
    } else {
      select_in_array(std::vector<K>(seg, seg + size), bits, std::move(reqs));
    }
  }
  if (beyond) fail(ErrorKind::kInternal, "order statistics: a rank is beyond its group's row count");
}

}  // namespace

void segmented_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, bool sort,
                      int threads, std::vector<uint64_t>& out) {
  if (key_bits(in.type) == 32)
    segmented_select_t<uint32_t>(in, ranks, m, sort, threads, out);
  else
    segmented_select_t<uint64_t>(in, ranks, m, sort, threads, out);
}

}  // namespace raydb::exec::orderstat::detail
