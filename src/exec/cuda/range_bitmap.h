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
// every word the range touches).
template <bool kSharedEnds>
void set_bit_range(uint32_t* bits, uint64_t from, uint64_t to) {
  auto set = [&](uint64_t w, uint32_t mask) {
    if constexpr (kSharedEnds) std::atomic_ref<uint32_t>(bits[w]).fetch_or(mask, std::memory_order_relaxed);
    else bits[w] |= mask;
  };
  const uint64_t first = from >> 5, last = to >> 5;
  const uint32_t head = ~0u << (from & 31), tail = ~0u >> (31 - (to & 31));
  if (first == last) {
    set(first, head & tail);
    return;
  }
  set(first, head);
  for (uint64_t w = first + 1; w < last; w++) bits[w] = ~0u;
  set(last, tail);
}

// Bits [a - lo, b - lo] set for each range [a, b] of `sr` (sorted, disjoint, within
// [lo, lo + span)), filled a word at a time.
BitWords range_bitmap(const std::vector<std::pair<uint64_t, uint64_t>>& sr, uint64_t lo, uint64_t span);

}  // namespace raydb::exec::cuda
