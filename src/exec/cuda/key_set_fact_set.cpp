#include "exec/cuda/key_set_fact_set.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "exec/core/perfect_set.h"
#include "exec/cuda/kernel_params.h"
#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda {

namespace {

// Bitmap words [wb, we) of the window's ranges (bit offsets from `vlo`), each word
// written by this call alone, so neighbouring ranges that share a word need no atomics
// and threads own disjoint slices. In blocks of 16 KB: a block is zeroed (the first
// touch of its pages), then its ranges set while it is still in cache.
void fill_words(const KeySetWindow& w, uint64_t vlo, uint32_t* bits, uint64_t wb, uint64_t we) {
  if (wb >= we) return;
  constexpr uint64_t kBlockWords = 4096;
  // The first range ending at or after this slice's first bit.
  size_t i = 0, n = w.size();
  while (i < n) {
    const size_t mid = i + (n - i) / 2;
    if (uint64_t(w.at(mid).second) - vlo < wb * 32)
      i = mid + 1;
    else
      n = mid;
  }
  for (uint64_t bs = wb; bs < we; bs += kBlockWords) {
    const uint64_t be = std::min(we, bs + kBlockWords), from_bit = bs * 32, end_bit = be * 32;
    std::memset(bits + bs, 0, size_t(be - bs) * 4);
    for (; i < w.size(); i++) {
      const auto [a, b] = w.at(i);
      const uint64_t from = uint64_t(a) - vlo, to = uint64_t(b) - vlo;
      if (from >= end_bit) break;
      set_bit_range<false>(bits, std::max(from, from_bit), std::min(to, end_bit - 1));
      if (to >= end_bit) break;  // continues in the next block
    }
  }
}

struct CachedBitmap {
  std::weak_ptr<const plan::KeySet> set;
  bool negated;
  int64_t min, max, base;
  std::shared_ptr<const FactSet> form;  // nullptr: no bitmap for this window
};

std::mutex g_mutex;
std::vector<CachedBitmap> g_cache;  // oldest first

// Bitmaps of sets still alive past this many bytes drop, oldest first (a process that
// keeps many large sets, such as a plan cache, would otherwise pin all their bitmaps).
constexpr uint64_t kCacheBytes = uint64_t(512) << 20;

bool same_set(const std::weak_ptr<const plan::KeySet>& a, const plan::KeySetPtr& b) {
  return !a.owner_before(b) && !b.owner_before(a);
}

uint64_t bytes_of(const CachedBitmap& c) { return c.form ? c.form->bits.size() * 4 : 0; }

}  // namespace

bool key_set_bitmap_pays(const KeySetWindow& w) {
  if (w.size() <= std::max<size_t>(kMaxPerfectKeys, size_t(kMaxPredRanges))) return false;
  return bitmap_pays(uint64_t(w.hi()) - uint64_t(w.lo()) + 1, w.size());  // span 0: all of 2^64
}

FactSet key_set_bitmap(const KeySetWindow& w, int64_t base) {
  FactSet s;
  s.kind = FactSet::Kind::kBitmap;
  const uint64_t vlo = uint64_t(w.lo());
  s.lo = vlo - uint64_t(base);  // stored = value - base, so bit offsets are value offsets
  s.span = uint64_t(w.hi()) - vlo + 1;
  const uint64_t nwords = (s.span + 31) / 32;
  s.bits.resize(size_t(nwords));  // unwritten: fill_words writes every word
  // A semi join's 1.3 M keys or an anti join's complement at SF 20: in parallel, one
  // slice of words per thread.
  const int parts = w.size() > 65536 ? std::max(1, omp_get_max_threads()) : 1;
  uint32_t* bits = s.bits.data();
#pragma omp parallel for schedule(static, 1) num_threads(parts) if (parts > 1)
  for (int t = 0; t < parts; t++)
    fill_words(w, vlo, bits, nwords * uint64_t(t) / uint64_t(parts), nwords * uint64_t(t + 1) / uint64_t(parts));
  return s;
}

std::shared_ptr<const FactSet> cached_key_set_bitmap(const plan::KeySetPtr& set, bool negated, int64_t min,
                                                     int64_t max, int64_t base) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::erase_if(g_cache, [](const CachedBitmap& c) { return c.set.expired(); });
  for (const CachedBitmap& c : g_cache)
    if (same_set(c.set, set) && c.negated == negated && c.min == min && c.max == max && c.base == base)
      return c.form;
  const KeySetWindow w(*set, negated, min, max);
  std::shared_ptr<const FactSet> form;
  if (!w.empty() && key_set_bitmap_pays(w)) form = std::make_shared<const FactSet>(key_set_bitmap(w, base));
  g_cache.push_back({set, negated, min, max, base, form});
  uint64_t total = 0;
  for (const CachedBitmap& c : g_cache) total += bytes_of(c);
  while (total > kCacheBytes && g_cache.size() > 1) {
    total -= bytes_of(g_cache.front());
    g_cache.erase(g_cache.begin());
  }
  return form;
}

void clear_key_set_bitmaps() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_cache.clear();
}

}  // namespace raydb::exec::cuda
