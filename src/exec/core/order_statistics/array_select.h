#pragma once
// Radix select inside an in-memory array of keys that already agree on every bit at
// or above `shift` (internal to order_statistics/): the last digits of a column-level
// radix select once its candidates were copied out, and the per-segment select of
// many groups. Most significant digit first, 11 bits a step; each step copies out
// only the buckets some rank falls in (nothing when every key is in that bucket).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace raydb::exec::orderstat::detail {

// A rank wanted within a candidate set, and where its key goes.
struct RankRequest {
  uint64_t rank;
  uint64_t* out;
};

// Below this many keys a partial sort (nth_element) beats a digit pass: the pass
// clears and walks 2^11 buckets whatever the count (a many-groups select over groups
// of a few hundred rows spent most of its time there).
constexpr size_t kPartialSortKeys = 4096;

// The ranks of [begin, end) by nth_element, in place: ranks in ascending order, each
// searched right of the one before (everything left of a placed rank is not larger).
template <class K>
void select_by_partial_sort(K* begin, K* end, std::vector<RankRequest> reqs) {
  std::sort(reqs.begin(), reqs.end(), [](const RankRequest& a, const RankRequest& b) { return a.rank < b.rank; });
  K* from = begin;
  for (const RankRequest& r : reqs) {
    K* nth = begin + r.rank;
    if (nth == from) {  // the next rank right after a placed one (quantile_cont's pair): a minimum
      std::iter_swap(from, std::min_element(from, end));
      from = nth + 1;
    } else if (nth > from) {
      std::nth_element(from, nth, end);
      from = nth + 1;
    }
    *r.out = *nth;
  }
}

template <class K>
void select_in_array(std::vector<K> keys, int shift, std::vector<RankRequest> reqs) {
  constexpr int kDigit = 11;
  while (!reqs.empty()) {
    if (shift == 0 || keys.size() <= kPartialSortKeys) {  // small or fully decided
      select_by_partial_sort(keys.data(), keys.data() + keys.size(), std::move(reqs));
      return;
    }
    const int w = std::min(shift, kDigit), s = shift - w;
    const uint64_t mask = (uint64_t(1) << w) - 1;
    std::vector<uint64_t> hist(size_t(1) << w, 0);
    for (K k : keys) hist[(uint64_t(k) >> s) & mask]++;
    std::sort(reqs.begin(), reqs.end(), [](const RankRequest& a, const RankRequest& b) { return a.rank < b.rank; });
    // Walk the buckets in key order, handing each rank to the bucket it falls in.
    std::vector<std::pair<uint64_t, std::vector<RankRequest>>> buckets;  // digit, ranks within it
    uint64_t below = 0;
    size_t r = 0;
    for (uint64_t d = 0; d <= mask && r < reqs.size(); d++) {
      while (r < reqs.size() && reqs[r].rank < below + hist[d]) {
        if (buckets.empty() || buckets.back().first != d) buckets.push_back({d, {}});
        buckets.back().second.push_back({reqs[r].rank - below, reqs[r].out});
        r++;
      }
      below += hist[d];
    }
    if (buckets.size() == 1 && hist[buckets[0].first] == keys.size()) {  // one bucket holds all: go on in place
      reqs = std::move(buckets[0].second);
      shift = s;
      continue;
    }
    for (auto& [d, sub] : buckets) {
      std::vector<K> part;
      part.reserve(hist[d]);
      for (K k : keys)
        if (((uint64_t(k) >> s) & mask) == d) part.push_back(k);
      select_in_array(std::move(part), s, std::move(sub));
    }
    return;
  }
}

}  // namespace raydb::exec::orderstat::detail
