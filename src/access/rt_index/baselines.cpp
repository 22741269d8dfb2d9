#include "access/rt_index/baselines.h"

#include <algorithm>

#include "common/error.h"
#include "common/hash_mix.h"
#include "common/timer.h"

namespace raydb::access {

SortedArrayIndex::SortedArrayIndex(std::span<const uint64_t> keys, std::span<const int64_t> values,
                                   BaselineOptions options) {
  Timer timer;
  sorted_probes_ = options.sorted_probes;
  sk_.build(keys, values, /*compress=*/false);
  stats_.build_ms = timer.elapsed_ms();
  stats_.memory_bytes = sk_.memory_bytes();
  stats_.peak_build_bytes = stats_.memory_bytes + keys.size() * 16;  // + the sort's pair buffer
}

Run SortedArrayIndex::find_run(const KeyRange& q) const {
  if (q.lo > q.hi) return {};
  const auto& k = sk_.keys;
  const auto b = std::lower_bound(k.begin(), k.end(), q.lo);
  const auto e = std::upper_bound(b, k.end(), q.hi);
  return Run{static_cast<uint32_t>(b - k.begin()), static_cast<uint32_t>(e - k.begin())};
}

namespace {
constexpr uint32_t kEmpty = 0xFFFFFFFFu;
}  // namespace

HashIndex::HashIndex(std::span<const uint64_t> keys, std::span<const int64_t> values, BaselineOptions options) {
  Timer timer;
  sorted_probes_ = options.sorted_probes;
  sk_.build(keys, values, /*compress=*/true);
  size_t cap = 16;
  while (cap < 2 * sk_.units()) cap <<= 1;
  slots_.assign(cap, kEmpty);
  mask_ = cap - 1;
  for (size_t u = 0; u < sk_.units(); ++u) {
    uint64_t s = fmix64(sk_.unit_keys[u]) & mask_;
    while (slots_[s] != kEmpty) s = (s + 1) & mask_;
    slots_[s] = static_cast<uint32_t>(u);
  }
  stats_.build_ms = timer.elapsed_ms();
  stats_.memory_bytes = sk_.memory_bytes() + slots_.capacity() * 4;
  stats_.peak_build_bytes = stats_.memory_bytes + keys.size() * 16;
}

Run HashIndex::find_run(const KeyRange& q) const {
  if (q.lo > q.hi) return {};
  if (q.lo != q.hi) fail(ErrorKind::kNotImplemented, "hash index: range lookups are not supported");
  for (uint64_t s = fmix64(q.lo) & mask_;; s = (s + 1) & mask_) {
    const uint32_t u = slots_[s];
    if (u == kEmpty) return {};
    if (sk_.unit_keys[u] == q.lo) return Run{sk_.unit_starts[u], sk_.unit_starts[u + 1]};
  }
}

}  // namespace raydb::access
