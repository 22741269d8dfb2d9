#include "access/rt_index/key_index.h"

#include <omp.h>

#include <algorithm>
#include <parallel/algorithm>

#include "access/rt_index/sorted_keys.h"
#include "common/error.h"

namespace raydb::access {

std::vector<KeyRange> point_lookups(std::span<const uint64_t> keys) {
  std::vector<KeyRange> out(keys.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < keys.size(); ++i) out[i] = KeyRange{keys[i], keys[i]};
  return out;
}

void exclusive_prefix_sum(std::span<const uint64_t> counts, std::vector<uint64_t>& offsets) {
  const size_t n = counts.size();
  offsets.assign(n + 1, 0);
  const int threads = std::max(1, std::min<int>(omp_get_max_threads(), static_cast<int>(n / 65536) + 1));
  std::vector<uint64_t> block_sum(threads + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const size_t b = n * t / threads, e = n * (t + 1) / threads;
    uint64_t s = 0;
    for (size_t i = b; i < e; ++i) s += counts[i];
    block_sum[t + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= threads; ++k) block_sum[k] += block_sum[k - 1];
    uint64_t run = block_sum[t];
    for (size_t i = b; i < e; ++i) {
      offsets[i] = run;
      run += counts[i];
    }
  }
  offsets[n] = block_sum[threads];
}

namespace {
// Deduplicated point lookups of IN-lists: per list, its distinct values.
void distinct_per_list(std::span<const uint64_t> list_offsets, std::span<const uint64_t> values,
                       std::vector<uint64_t>& offs, std::vector<KeyRange>& points) {
  const size_t lists = list_offsets.empty() ? 0 : list_offsets.size() - 1;
  offs.assign(lists + 1, 0);
  points.clear();
  std::vector<uint64_t> tmp;
  for (size_t l = 0; l < lists; ++l) {
    tmp.assign(values.begin() + list_offsets[l], values.begin() + list_offsets[l + 1]);
    std::sort(tmp.begin(), tmp.end());
    tmp.erase(std::unique(tmp.begin(), tmp.end()), tmp.end());
    for (uint64_t v : tmp) points.push_back(KeyRange{v, v});
    offs[l + 1] = points.size();
  }
}
}  // namespace

void aggregate_in_lists(const KeyIndex& index, std::span<const uint64_t> list_offsets,
                        std::span<const uint64_t> values, AggregateResult& out) {
  std::vector<uint64_t> offs;
  std::vector<KeyRange> points;
  distinct_per_list(list_offsets, values, offs, points);
  AggregateResult per_point;
  index.aggregate(points, per_point);
  const size_t lists = offs.size() - 1;
  out.count.assign(lists, 0);
  out.sum.assign(lists, 0);
  for (size_t l = 0; l < lists; ++l)
    for (uint64_t p = offs[l]; p < offs[l + 1]; ++p) {
      out.count[l] += per_point.count[p];
      out.sum[l] += per_point.sum[p];
    }
}

void materialize_in_lists(const KeyIndex& index, std::span<const uint64_t> list_offsets,
                          std::span<const uint64_t> values, RowIdLists& out) {
  std::vector<uint64_t> offs;
  std::vector<KeyRange> points;
  distinct_per_list(list_offsets, values, offs, points);
  RowIdLists per_point;
  index.materialize(points, per_point);
  const size_t lists = offs.size() - 1;
  // Points of one list are adjacent, so each list's rows are one contiguous slice.
  out.offsets.assign(lists + 1, 0);
  for (size_t l = 0; l < lists; ++l) out.offsets[l + 1] = per_point.offsets[offs[l + 1]];
  out.rows = std::move(per_point.rows);
}

JoinPairs index_join(const KeyIndex& build, std::span<const uint64_t> probe_keys) {
  const std::vector<KeyRange> points = point_lookups(probe_keys);
  RowIdLists lists;
  build.materialize(points, lists);
  JoinPairs pairs;
  pairs.build = std::move(lists.rows);
  pairs.probe.resize(pairs.build.size());
#pragma omp parallel for schedule(dynamic, 4096)
  for (size_t i = 0; i < probe_keys.size(); ++i)
    for (uint64_t j = lists.offsets[i]; j < lists.offsets[i + 1]; ++j) pairs.probe[j] = static_cast<RowId>(i);
  return pairs;
}

void sort_pairs(std::span<const uint64_t> keys, std::vector<uint64_t>& sorted_keys, std::vector<uint32_t>& perm) {
  const size_t n = keys.size();
  if (n >= (uint64_t{1} << 32)) fail(ErrorKind::kInvalidInput, "index: at most 2^32 - 1 rows (got {})", n);
  struct Pair {
    uint64_t key;
    uint32_t idx;
  };
  std::vector<Pair> pairs(n);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) pairs[i] = Pair{keys[i], static_cast<uint32_t>(i)};
  __gnu_parallel::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
    return a.key != b.key ? a.key < b.key : a.idx < b.idx;
  });
  sorted_keys.resize(n);
  perm.resize(n);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    sorted_keys[i] = pairs[i].key;
    perm[i] = pairs[i].idx;
  }
}

void SortedKeys::build(std::span<const uint64_t> in_keys, std::span<const int64_t> in_values, bool compress) {
  if (!in_values.empty() && in_values.size() != in_keys.size())
    fail(ErrorKind::kInvalidInput, "index: {} values for {} keys", in_values.size(), in_keys.size());
  sort_pairs(in_keys, keys, rows);
  values.clear();
  if (!in_values.empty()) {
    values.resize(keys.size());
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < keys.size(); ++i) values[i] = in_values[rows[i]];
  }
  compressed = compress;
  unit_keys.clear();
  unit_starts.clear();
  if (compress) {
    for (size_t i = 0; i < keys.size(); ++i)
      if (i == 0 || keys[i] != keys[i - 1]) {
        unit_keys.push_back(keys[i]);
        unit_starts.push_back(static_cast<uint32_t>(i));
      }
    unit_starts.push_back(static_cast<uint32_t>(keys.size()));
    unit_keys.shrink_to_fit();
    unit_starts.shrink_to_fit();
  }
}

}  // namespace raydb::access
