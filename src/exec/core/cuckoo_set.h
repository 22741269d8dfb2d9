#pragma once
// A set of 64-bit keys as a cuckoo hash table: two halves of 2^bits slots, key x
// lives at half 0's slot (x * mul0) >> (64 - bits) or half 1's slot (x * mul1) >>
// (64 - bits) (multiply-shift hashing, odd multipliers). A lookup is exactly two
// loads and two compares, with no loop and no branch: what a GPU predicate over an
// IN list of far-apart keys needs (bisection there is a chain of dependent loads).
// Empty slots hold a key of the set, so a probe that lands on one answers "member"
// only for that key, which is a member: no sentinel value is ever confused with data.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/host_device.h"

namespace raydb::exec {

RAYDB_HOST_DEVICE uint64_t cuckoo_slot(uint64_t x, uint64_t mul, uint32_t shift) { return (x * mul) >> shift; }

// The probe, shared by the host and the kernels: table = 2 << bits entries.
RAYDB_HOST_DEVICE bool cuckoo_contains(const uint64_t* table, uint64_t mul0, uint64_t mul1, uint32_t bits,
                                       uint64_t x) {
  const uint32_t shift = 64 - bits;
  return table[cuckoo_slot(x, mul0, shift)] == x || table[(uint64_t(1) << bits) + cuckoo_slot(x, mul1, shift)] == x;
}

// A prefilter in front of the table: bit (x * mul0) >> (64 - filter_bits) of a
// 2^filter_bits-bit array is set for every key, so a clear bit proves x is not a
// member and only the rest probe the table. Small (512 B for up to 64 keys): on the GPU
// a warp's 32 filter loads touch a few cache lines where its 64 table probes touch
// dozens (the L1 wavefronts, not DRAM, bounded IN lists of 6-64 keys).
RAYDB_HOST_DEVICE uint32_t cuckoo_filter_bit(uint64_t x, uint64_t mul0, uint32_t filter_bits) {
  return uint32_t((x * mul0) >> (64 - filter_bits));
}

struct CuckooSet {
  std::vector<uint64_t> table;  // 2 << bits entries
  uint64_t mul0 = 0, mul1 = 0;
  uint32_t bits = 0;
  std::vector<uint32_t> filter;  // 2^filter_bits bits
  uint32_t filter_bits = 0;
  bool maybe(uint64_t x) const {
    const uint32_t f = cuckoo_filter_bit(x, mul0, filter_bits);
    return (filter[f >> 5] >> (f & 31)) & 1u;
  }
  bool contains(uint64_t x) const { return maybe(x) && cuckoo_contains(table.data(), mul0, mul1, bits, x); }
};

// Builds the table for `keys` (duplicates allowed, at least one key) with each half
// at most a quarter full (at most 2^24 slots per half) and the prefilter (about 64
// bits per key, 2^12 to 2^16 bits); nullopt when no multipliers
// from a fixed sequence place every key (practically never at that load).
std::optional<CuckooSet> build_cuckoo_set(const std::vector<uint64_t>& keys);

}  // namespace raydb::exec
