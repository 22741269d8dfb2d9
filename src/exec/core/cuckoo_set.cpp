#include "exec/core/cuckoo_set.h"

#include <algorithm>

#include "common/hash_mix.h"

namespace raydb::exec {

namespace {

// Places every (distinct) key, evicting along the cuckoo path; false after too many evictions.
bool place_all(CuckooSet& s, const std::vector<uint64_t>& keys, std::vector<uint8_t>& used) {
  const uint64_t half = uint64_t(1) << s.bits;
  const uint32_t shift = 64 - s.bits;
  const size_t max_kicks = 64 + 8 * keys.size();
  for (uint64_t key : keys) {
    uint64_t x = key;
    int side = 0;
    for (size_t kick = 0;; kick++) {
      if (kick > max_kicks) return false;
      const uint64_t at = side == 0 ? cuckoo_slot(x, s.mul0, shift) : half + cuckoo_slot(x, s.mul1, shift);
      if (!used[at]) {
        used[at] = 1;
        s.table[at] = x;
        break;
      }
      std::swap(x, s.table[at]);  // evict the occupant to its other half
      side ^= 1;
    }
  }
  return true;
}

}  // namespace

std::optional<CuckooSet> build_cuckoo_set(const std::vector<uint64_t>& input) {
  std::vector<uint64_t> keys = input;
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys.empty()) return std::nullopt;
  uint32_t bits = 4;
  while ((uint64_t(1) << bits) < 4 * keys.size() && bits < 24) bits++;
  if ((uint64_t(1) << bits) < 2 * keys.size()) return std::nullopt;
  for (uint64_t attempt = 0; attempt < 16; attempt++) {
    CuckooSet s;
    s.bits = bits;
    s.mul0 = fmix64(2 * attempt + 1) | 1;
    s.mul1 = fmix64(2 * attempt + 2) | 1;
    s.table.assign(size_t(2) << bits, keys.front());  // empty slots hold a member
    std::vector<uint8_t> used(s.table.size(), 0);
    if (!place_all(s, keys, used)) continue;
    s.filter_bits = 12;
    while ((uint64_t(1) << s.filter_bits) < 64 * keys.size() && s.filter_bits < 16) s.filter_bits++;
    s.filter.assign(size_t(1) << (s.filter_bits - 5), 0u);
    for (uint64_t k : keys) {
      const uint32_t f = cuckoo_filter_bit(k, s.mul0, s.filter_bits);
      s.filter[f >> 5] |= 1u << (f & 31);
    }
    return s;
  }
  return std::nullopt;
}

}  // namespace raydb::exec
