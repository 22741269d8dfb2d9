// The 2004 paper's KthLargest (routine 4.5), for the k-th smallest: x starts at 0 and
// stays <= the wanted key v; at bit i, m = x + 2^i, and
//   count(key < m) <= rank  <=>  v >= m   (the first rank + 1 keys are not all below m)
// so the bit is set exactly when the count is at most the rank. After the last bit x
// equals v. Each bit is one pass that only compares and counts, so the time depends on
// neither k nor the data; all ranks of all groups share each pass (one threshold and
// one counter per rank).
#include <algorithm>

#include "exec/core/order_statistics/algorithms.h"
#include "exec/core/order_statistics/scan.h"

namespace raydb::exec::orderstat::detail {

namespace {

// counts[s] += number of counting rows of [b, e) in the group of slot s with key < thr[s].
void count_below(const ColumnInput& in, uint64_t b, uint64_t e, const uint64_t* thr, uint32_t m, uint64_t* counts) {
  if (m == 1 && !in.group_ids) {  // the common case: one threshold, a branch-free compare and add
    const uint64_t t = thr[0];
    uint64_t c = 0;
    auto f = [&](uint64_t, auto key, uint32_t) { c += uint64_t(key) < t; };
    scan_range(in, b, e, f);
    counts[0] += c;
    return;
  }
  auto f = [&](uint64_t, auto key, uint32_t g) {
    const uint64_t* t = thr + size_t(g) * m;
    uint64_t* c = counts + size_t(g) * m;
    for (uint32_t j = 0; j < m; j++) c[j] += uint64_t(key) < t[j];
  };
  scan_range(in, b, e, f);
}

}  // namespace

void bitwise_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, int threads,
                    std::vector<uint64_t>& out) {
  const size_t slots = ranks.size();
  const int nt = thread_count(threads);
  std::vector<uint64_t> x(slots, 0), thr(slots, 0), total(slots);
  std::vector<std::vector<uint64_t>> counts(static_cast<size_t>(nt), std::vector<uint64_t>(slots));
  for (int bit = key_bits(in.type) - 1; bit >= 0; bit--) {
    const uint64_t step = uint64_t(1) << bit;
    for (size_t s = 0; s < slots; s++) thr[s] = ranks[s] == kNoRank ? 0 : x[s] + step;  // 0: counts nothing
    parallel_ranges(in.n, threads, [&](int id, uint64_t b, uint64_t e) {
      std::fill(counts[size_t(id)].begin(), counts[size_t(id)].end(), 0);
      count_below(in, b, e, thr.data(), m, counts[size_t(id)].data());
    });
    std::fill(total.begin(), total.end(), 0);
    for (const auto& c : counts)
      for (size_t s = 0; s < slots; s++) total[s] += c[s];
    for (size_t s = 0; s < slots; s++)
      if (ranks[s] != kNoRank && total[s] <= ranks[s]) x[s] += step;
  }
  for (size_t s = 0; s < slots; s++) out[s] = ranks[s] == kNoRank ? 0 : x[s];
}

}  // namespace raydb::exec::orderstat::detail
