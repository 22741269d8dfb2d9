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

template <class K>
void select_in_array(std::vector<K> keys, int shift, std::vector<RankRequest> reqs) {
  constexpr int kDigit = 11;
  while (!reqs.empty()) {
    if (shift == 0 || keys.size() <= 64) {  // small or fully decided: finish by sorting
      std::sort(keys.begin(), keys.end());
      for (const RankRequest& r : reqs) *r.out = keys[r.rank];
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
