#pragma once
// Expected results of `raydb bench index`'s generated data, computed from how the
// data is made (distinct key j = base + 2j with 2^dup copies: per-key counts and
// sums, prefix sums over j), O(keys + lookups) and independent of every index, so
// checking costs little even at 2^27 lookups.
#include <cstdint>
#include <span>
#include <vector>

#include "access/rt_index/key_index.h"

namespace raydb::bench {

class IndexOracle {
 public:
  IndexOracle(std::span<const uint64_t> keys, std::span<const int64_t> values, uint64_t base, uint64_t distinct);

  // Count and value sum of the keys in q.
  void expect(const access::KeyRange& q, uint64_t* count, int64_t* sum) const;
  // Whether `out` holds the expected count and sum of every lookup.
  bool check(std::span<const access::KeyRange> lookups, const access::AggregateResult& out) const;

 private:
  uint64_t base_ = 0, distinct_ = 0;
  std::vector<uint64_t> count_prefix_;  // keys with j' < j
  std::vector<int64_t> sum_prefix_;     // their value sum
};

}  // namespace raydb::bench
