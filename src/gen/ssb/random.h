#pragma once
// Counter-based random streams: every row (or order) of every table gets its own
// stream, derived from (seed, table, row) by hashing. A row's values therefore never
// depend on which thread generates it or in which order, so output is identical for
// any thread count.
#include <cstdint>

namespace raydb::ssb {

// One stream id per generated entity, so streams of different tables never collide.
enum class Stream : uint64_t { kCustomer = 1, kSupplier = 2, kPart = 3, kOrder = 4, kOrderLines = 5 };

// Finalizer of SplitMix64: a bijective 64-bit mix with good avalanche.
constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class RowRandom {
 public:
  RowRandom(uint64_t seed, Stream stream, uint64_t row)
      : state_(mix64(mix64(seed ^ (uint64_t(stream) * 0xD1B54A32D192ED03ull)) + row * 0x9E3779B97F4A7C15ull)) {}

  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_);
  }
  // Uniform integer in [lo, hi] (multiply-high; bias below 2^-40 for these ranges).
  int64_t uniform(int64_t lo, int64_t hi) {
    unsigned __int128 span = uint64_t(hi - lo) + 1;
    return lo + int64_t((span * next()) >> 64);
  }

 private:
  uint64_t state_;
};

}  // namespace raydb::ssb
