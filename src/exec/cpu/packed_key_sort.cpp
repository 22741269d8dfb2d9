#include "exec/cpu/packed_key_sort.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace raydb::exec {

namespace {
constexpr int kDigitBits = 11;
constexpr size_t kBuckets = size_t(1) << kDigitBits;

int bit_width(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }
}  // namespace

bool PackedKeySort::pack(const int64_t* keys, size_t n) {
  const size_t w = size_t(width_);
  min_.assign(w, INT64_MAX);
  std::vector<int64_t> max(w, INT64_MIN);
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < w; k++) {
      min_[k] = std::min(min_[k], keys[i * w + k]);
      max[k] = std::max(max[k], keys[i * w + k]);
    }
  shift_.assign(w, 0);
  mask_.assign(w, 0);
  int total = 0;
  for (size_t k = w; k-- > 0;) {  // the last word is the least significant
    const int bits = bit_width(uint64_t(max[k]) - uint64_t(min_[k]));
    if (total + bits > 64) return false;
    shift_[k] = bits == 0 ? 0 : total;  // an offset of no bits is 0: no shift by 64
    mask_[k] = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    total += bits;
  }
  packed_.resize(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t p = 0;
    for (size_t k = 0; k < w; k++) p |= (uint64_t(keys[i * w + k]) - uint64_t(min_[k])) << shift_[k];
    packed_[i] = p;
  }
  return true;
}

// Stable LSD passes over the digits that vary (a pass whose digit is the same in
// every key is skipped), all histograms counted in one read.
void PackedKeySort::radix_passes(int bits) {
  const size_t n = packed_.size();
  const int passes = (bits + kDigitBits - 1) / kDigitBits;
  std::vector<std::array<uint32_t, kBuckets>> counts(static_cast<size_t>(passes));
  for (auto& c : counts) c.fill(0);
  for (size_t i = 0; i < n; i++)
    for (int p = 0; p < passes; p++) counts[size_t(p)][(packed_[i] >> (p * kDigitBits)) & (kBuckets - 1)]++;
  std::vector<uint64_t> keys2(n);
  std::vector<uint32_t> order2(n);
  for (int p = 0; p < passes; p++) {
    auto& c = counts[size_t(p)];
    if (std::find(c.begin(), c.end(), uint32_t(n)) != c.end()) continue;  // one digit value
    uint32_t sum = 0;
    for (auto& x : c) {
      const uint32_t k = x;
      x = sum;
      sum += k;
    }
    const int shift = p * kDigitBits;
    for (size_t i = 0; i < n; i++) {
      const uint32_t at = c[(packed_[i] >> shift) & (kBuckets - 1)]++;
      keys2[at] = packed_[i];
      order2[at] = order_[i];
    }
    packed_.swap(keys2);
    order_.swap(order2);
  }
}

bool PackedKeySort::sort(const int64_t* keys, size_t n, int width) {
  width_ = width;
  if (!pack(keys, n)) return false;
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  if (std::is_sorted(packed_.begin(), packed_.end())) return true;  // e.g. a table stored in key order
  int bits = 0;
  for (size_t k = 0; k < size_t(width); k++) bits = std::max(bits, shift_[k] + bit_width(mask_[k]));
  radix_passes(bits);
  return true;
}

void PackedKeySort::unpack(uint64_t p, int64_t* words) const {
  for (size_t k = 0; k < size_t(width_); k++) words[k] = int64_t(uint64_t(min_[k]) + ((p >> shift_[k]) & mask_[k]));
}

}  // namespace raydb::exec
