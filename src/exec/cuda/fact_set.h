#pragma once
// The host form of a long fact-filter set of the star kernels (a predicate with more
// stored ranges than DevPred holds inline): a bitmap when its span is small for its
// ranges (range_bitmap.h: one probe per row), a cuckoo table when every range is one
// value (IN lists of far-apart keys: two independent probes per row), else sorted
// (lo, hi) pairs searched by bisection. Pure host code, built in every configuration;
// star_fact_pass.cpp uploads it (DevPred::bitmap / hash / ranges).
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "exec/core/cuckoo_set.h"
#include "exec/cuda/bit_words.h"

namespace raydb::exec::cuda {

using StoredRanges = std::vector<std::pair<uint64_t, uint64_t>>;

// Adjacent stored ranges merged (dictionary ranks of neighbouring value ranges touch).
StoredRanges merged(StoredRanges sr);

struct FactSet {
  enum class Kind { kBitmap, kHash, kPairs };
  Kind kind = Kind::kPairs;
  BitWords bits;               // kBitmap: bit v - lo of word (v - lo) / 32
  uint64_t lo = 0, span = 0;   // kBitmap
  std::optional<CuckooSet> hash;
  std::vector<uint64_t> pairs;  // kPairs: lo0, hi0, lo1, hi1, ...
};

// Where a set's bitmap lies: bit v - lo for stored v, `span` bits in `words` 32-bit words.
struct BitmapShape {
  uint64_t lo = 0, span = 0, words = 0;
};

// The bitmap's shape when `sr` (sorted, disjoint, not empty) takes one (bitmap_pays,
// range_bitmap.h), as build_fact_set decides; else nullopt.
std::optional<BitmapShape> bitmap_shape(const StoredRanges& sr);

// `sr`: sorted, disjoint, not empty.
FactSet build_fact_set(const StoredRanges& sr);

}  // namespace raydb::exec::cuda
