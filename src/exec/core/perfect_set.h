#pragma once
// A small set of 32-bit keys (an IN list of at most kMaxPerfectKeys values) as a
// collision-free multiplicative hash: key x lives at slot (uint32(x) * mul) >>
// (32 - bits) of a 2^bits-entry table, and no two keys share a slot. A lookup is one
// multiply, one shift, one load and one compare, with no branch: on the GPU the table
// sits in shared memory, so an IN list costs about what one range compare does,
// whatever its length (inline ranges cost a compare per key; the cuckoo set two
// scattered cache loads plus a prefilter load per row).
// Empty slots hold keys[0]: a value x landing on an empty slot s matches only if
// x == keys[0], but keys[0]'s own slot is not s (the hash is a function), so no
// empty slot ever answers "member" and no sentinel value is needed.
// Values above 2^32 never match: entries are 32-bit and compared to the whole value.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/host_device.h"

namespace raydb::exec {

constexpr size_t kMaxPerfectKeys = 128;
constexpr uint32_t kMaxPerfectBits = 12;  // 16 KB of shared memory at most

RAYDB_HOST_DEVICE uint32_t perfect_slot(uint64_t x, uint32_t mul, uint32_t bits) {
  return (uint32_t(x) * mul) >> (32 - bits);
}

struct PerfectSet {
  std::vector<uint32_t> table;  // 2^bits entries
  uint32_t mul = 0;
  uint32_t bits = 0;
  bool contains(uint64_t x) const { return uint64_t(table[perfect_slot(x, mul, bits)]) == x; }
};

// The set of `keys` (duplicates allowed): nullopt when there are none, more than
// kMaxPerfectKeys distinct ones, one at or above 2^32, or no multiplier from a fixed
// sequence separates them within kMaxPerfectBits (the table starts at about n^2 / 4
// slots, where a random odd multiplier succeeds with probability about e^-2).
std::optional<PerfectSet> build_perfect_set(const std::vector<uint64_t>& keys);

}  // namespace raydb::exec
