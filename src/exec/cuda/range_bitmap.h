#pragma once
// The bitmap form of a long stored-value set for the star kernels' predicates
// (DevPred::bitmap: bit v - lo of 32-bit word (v - lo) / 32): one load per row instead
// of a bisection over the ranges. Pure host code, built in every configuration.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "exec/cuda/bit_words.h"

namespace raydb::exec::cuda {

// Whether a set of `ranges` sorted disjoint ranges spanning `span` values (0: all 2^64)
// takes the bitmap: a small span (at most 2^20 bits, cache-resident), or a span of at
// most 2^28 bits (32 MB, L2-sized on the H100) no larger than 512 bits per range, so
// the bitmap is at most four times the pairs' 16 bytes per range (a semi join's key set
// of ~1.4 M order keys over TPC-H's 120 M-wide key range at SF 20).
bool bitmap_pays(uint64_t span, std::size_t ranges);

// Bits [from, to] (offsets, inclusive) set: a masked first and last word, whole words
// between, O(words + 1) and no loop per bit. Whole words belong to this range alone;
// with kSharedEnds the first and last word, which neighbouring ranges filled by other
// threads may share, are OR-ed atomically, else with plain stores (the caller owns
// every word the range touches). Words of 32 bits (the star kernels') or 64 (the general
// path's kPInBitmap, bitmap_set.h); bit b is bit b % W of word b / W either way.
template <bool kSharedEnds, typename Word = uint32_t>
void set_bit_range(Word* bits, uint64_t from, uint64_t to) {
  constexpr int kW = int(sizeof(Word) * 8);
  constexpr Word kAll = Word(~Word(0));
  auto set = [&](uint64_t w, Word mask) {
    if constexpr (kSharedEnds) std::atomic_ref<Word>(bits[w]).fetch_or(mask, std::memory_order_relaxed);
    else bits[w] |= mask;
  };
  const uint64_t first = from / kW, last = to / kW;
  const Word head = Word(kAll << (from % kW)), tail = Word(kAll >> (kW - 1 - to % kW));
  if (first == last) {
    set(first, Word(head & tail));
    return;
  }
  set(first, head);
  for (uint64_t w = first + 1; w < last; w++) bits[w] = kAll;
  set(last, tail);
}

// Bits [a - lo, b - lo] set for each range [a, b] of `sr` (sorted, disjoint, within
// [lo, lo + span)), filled a word at a time.
BitWords range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span);
// The same bits written over all (span + 31) / 32 words at `bits`, whatever they held
// (the star pass's pinned staging): zeroed, then the ranges set, each in parallel.
void fill_range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span,
                       uint32_t* bits);

}  // namespace raydb::exec::cuda
