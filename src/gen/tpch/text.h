#pragma once
// The text values of TPC-H (clause 4.2.2): comments cut from a pool of sentences
// made by the specification's grammar, random v-strings (addresses) and phone numbers.
#include <cstdint>
#include <string>

#include "gen/tpch/random.h"

namespace raydb::tpch {

// A pool of text made by the grammar of clause 4.2.2.14 (sentences of noun, verb and
// prepositional phrases over the specification's word lists). Comments are
// substrings of it: a random length in [min, max] at a random offset, as the
// specification defines text strings. dbgen's pool is 300 MB; this one is smaller
// (kPoolBytes), which only makes equal comments a little more likely.
class TextPool {
 public:
  static constexpr size_t kPoolBytes = size_t(4) << 20;
  explicit TextPool(uint64_t seed);

  // A comment of [min, max] characters (max < kPoolBytes).
  std::string text(RowRandom& rng, int min, int max) const;
  const std::string& pool() const { return pool_; }

 private:
  std::string pool_;
};

// A v-string (clause 4.2.2.7): [min, max] characters from a 64-symbol alphabet.
std::string random_vstring(RowRandom& rng, int min, int max);

// A phone number (clause 4.2.2.9): "CC-LLL-LLL-LLLL", country code nation + 10, the
// local parts uniform in [100, 999], [100, 999] and [1000, 9999].
std::string random_phone(RowRandom& rng, int nation);

}  // namespace raydb::tpch
