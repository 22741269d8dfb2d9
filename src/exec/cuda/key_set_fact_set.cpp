#include "exec/cuda/key_set_fact_set.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
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

}  // namespace

bool key_set_bitmap_pays(const KeySetWindow& w) {
  if (w.size() <= std::max<size_t>(kMaxPerfectKeys, size_t(kMaxPredRanges))) return false;
  return bitmap_pays(uint64_t(w.hi()) - uint64_t(w.lo()) + 1, w.size());  // span 0: all of 2^64
}

BitmapShape key_set_bitmap_shape(const KeySetWindow& w, int64_t base) {
  BitmapShape s;
  const uint64_t vlo = uint64_t(w.lo());
  s.lo = vlo - uint64_t(base);  // stored = value - base, so bit offsets are value offsets
  s.span = uint64_t(w.hi()) - vlo + 1;
  s.words = (s.span + 31) / 32;
  return s;
}

void fill_key_set_bitmap(const KeySetWindow& w, uint32_t* bits) {
  const uint64_t vlo = uint64_t(w.lo());
  const uint64_t nwords = key_set_bitmap_shape(w, 0).words;
  // A semi join's 1.3 M keys or an anti join's complement at SF 20: in parallel, one
  // slice of words per thread.
  const int parts = w.size() > 65536 ? std::max(1, omp_get_max_threads()) : 1;
#pragma omp parallel for schedule(static, 1) num_threads(parts) if (parts > 1)
  for (int t = 0; t < parts; t++)
    fill_words(w, vlo, bits, nwords * uint64_t(t) / uint64_t(parts), nwords * uint64_t(t + 1) / uint64_t(parts));
}

FactSet key_set_bitmap(const KeySetWindow& w, int64_t base) {
  FactSet s;
  s.kind = FactSet::Kind::kBitmap;
  const BitmapShape shape = key_set_bitmap_shape(w, base);
  s.lo = shape.lo;
  s.span = shape.span;
  s.bits.resize(size_t(shape.words));  // unwritten: fill_key_set_bitmap writes every word
  fill_key_set_bitmap(w, s.bits.data());
  return s;
}

}  // namespace raydb::exec::cuda
