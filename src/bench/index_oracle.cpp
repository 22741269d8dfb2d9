#include "bench/index_oracle.h"

#include <algorithm>

namespace raydb::bench {

IndexOracle::IndexOracle(std::span<const uint64_t> keys, std::span<const int64_t> values, uint64_t base,
                         uint64_t distinct)
    : base_(base), distinct_(distinct) {
  std::vector<uint64_t> c(distinct_, 0);
  std::vector<int64_t> s(distinct_, 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint64_t j = (keys[i] - base_) / 2;
    ++c[j];
    s[j] += values[i];
  }
  count_prefix_.assign(distinct_ + 1, 0);
  sum_prefix_.assign(distinct_ + 1, 0);
  for (uint64_t j = 0; j < distinct_; ++j) {
    count_prefix_[j + 1] = count_prefix_[j] + c[j];
    sum_prefix_[j + 1] = sum_prefix_[j] + s[j];
  }
}

// Distinct keys j in [j0, j1) with lo <= base + 2j <= hi.
void IndexOracle::expect(const access::KeyRange& q, uint64_t* count, int64_t* sum) const {
  *count = 0;
  *sum = 0;
  if (q.lo > q.hi || q.hi < base_) return;
  const uint64_t j0 = q.lo <= base_ ? 0 : (q.lo - base_ + 1) / 2;
  const uint64_t j1 = std::min<uint64_t>(distinct_, (q.hi - base_) / 2 + 1);
  if (j0 >= j1) return;
  *count = count_prefix_[j1] - count_prefix_[j0];
  *sum = sum_prefix_[j1] - sum_prefix_[j0];
}

bool IndexOracle::check(std::span<const access::KeyRange> lookups, const access::AggregateResult& out) const {
  if (out.count.size() != lookups.size() || out.sum.size() != lookups.size()) return false;
  bool ok = true;
#pragma omp parallel for schedule(static) reduction(&& : ok)
  for (size_t i = 0; i < lookups.size(); ++i) {
    uint64_t c;
    int64_t s;
    expect(lookups[i], &c, &s);
    ok = ok && c == out.count[i] && s == out.sum[i];
  }
  return ok;
}

}  // namespace raydb::bench
