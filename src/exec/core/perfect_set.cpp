#include "exec/core/perfect_set.h"

#include <algorithm>

#include "common/hash_mix.h"

namespace raydb::exec {

namespace {

// Whether `mul` sends every key to its own slot; fills the table when it does.
// used[s] == stamp marks slot s taken in this trial: a new stamp per trial instead
// of clearing the array (a failed trial stops at its first collision, after about
// the square root of the table's size in keys, so clearing cost more than probing).
bool separates(const std::vector<uint64_t>& keys, uint32_t mul, uint32_t bits, std::vector<uint32_t>& table,
               std::vector<uint32_t>& used, uint32_t stamp) {
  for (uint64_t k : keys) {
    const uint32_t s = perfect_slot(k, mul, bits);
    if (used[s] == stamp) return false;
    used[s] = stamp;
  }
  std::fill(table.begin(), table.end(), uint32_t(keys.front()));
  for (uint64_t k : keys) table[perfect_slot(k, mul, bits)] = uint32_t(k);
  return true;
}

}  // namespace

std::optional<PerfectSet> build_perfect_set(const std::vector<uint64_t>& input) {
  std::vector<uint64_t> keys = input;
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys.empty() || keys.size() > kMaxPerfectKeys || keys.back() > 0xffffffffull) return std::nullopt;
  // Birthday bound: n keys in m slots collide-free with probability ~ exp(-n^2 / 2m).
  // m >= n^2 / 4 gives ~e^-2 (7 trials on average; the table is built on the host
  // inside the query's device time, and n^2 / 8's e^-4 took ~55). 128 keys: 16 KB.
  const uint64_t n = keys.size();
  uint32_t bits = 5;
  while ((uint64_t(1) << bits) * 4 < n * n && bits < kMaxPerfectBits) bits++;
  constexpr uint64_t kTries = 512;
  uint64_t seed = 0;
  for (; bits <= kMaxPerfectBits; bits++) {
    PerfectSet s;
    s.bits = bits;
    s.table.assign(size_t(1) << bits, 0);
    std::vector<uint32_t> used(s.table.size(), 0);
    for (uint64_t t = 0; t < kTries; t++) {
      const uint32_t mul = uint32_t(fmix64(++seed)) | 1u;
      if (!separates(keys, mul, bits, s.table, used, uint32_t(t + 1))) continue;
      s.mul = mul;
      return s;
    }
  }
  return std::nullopt;
}

}  // namespace raydb::exec
