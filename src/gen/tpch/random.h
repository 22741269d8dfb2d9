#pragma once
// Counter-based random streams, as in gen/ssb: every row of every table gets its own
// stream derived from (seed, table, row) by hashing, so a row's values never depend
// on which thread generates it.
#include <cstdint>

#include "gen/ssb/random.h"

namespace raydb::tpch {

enum class Stream : uint64_t {
  kPart = 101, kPartSupp, kSupplier, kCustomer, kOrder, kOrderLines, kNation, kRegion, kTextPool, kSupplierMarks
};

class RowRandom {
 public:
  RowRandom(uint64_t seed, Stream stream, uint64_t row)
      : state_(ssb::mix64(ssb::mix64(seed ^ (uint64_t(stream) * 0xD1B54A32D192ED03ull)) +
                          row * 0x9E3779B97F4A7C15ull)) {}

  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return ssb::mix64(state_);
  }
  // Uniform integer in [lo, hi] (multiply-high; bias below 2^-40 for these ranges).
  int64_t uniform(int64_t lo, int64_t hi) {
    unsigned __int128 span = uint64_t(hi - lo) + 1;
    return lo + int64_t((span * next()) >> 64);
  }

 private:
  uint64_t state_;
};

}  // namespace raydb::tpch
