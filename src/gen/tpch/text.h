#pragma once
// The text values of TPC-H (clause 4.2.2): comments cut from a pool of sentences
// made by the specification's grammar, random v-strings (addresses) and phone
// numbers, each drawn as the TPC-H kit's dbgen draws them so that the text equals
// dbgen's.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "gen/tpch/random.h"

namespace raydb::tpch {

// dbgen's text pool: 300 MiB of sentences of the grammar (clause 4.2.2.14), made
// from one stream before any table. Its size does not depend on the scale factor:
// comments start at a random offset anywhere in it.
class TextPool {
 public:
  static constexpr int64_t kPoolBytes = int64_t(300) << 20;
  explicit TextPool(uint64_t seed);

  // The pool of `seed`, built once per process and kept while the last caller
  // holds it (building it takes about a second; every generation needs it).
  static std::shared_ptr<const TextPool> shared(uint64_t seed);

  // A comment of [min, max] characters: dbgen draws the offset, then the length.
  std::string_view text(ColumnStream& s, int min, int max) const {
    const int64_t offset = s.uniform(0, kPoolBytes - max);
    const int64_t length = s.uniform(min, max);
    return std::string_view(pool_.get() + offset, size_t(length));
  }
  std::string_view pool() const { return std::string_view(pool_.get(), size_t(kPoolBytes)); }

 private:
  std::unique_ptr<char[]> pool_;
};

// A v-string (clause 4.2.2.7): [min, max] characters of a 64-symbol alphabet, five
// characters from each draw.
std::string random_vstring(ColumnStream& s, int min, int max);

// A phone number (clause 4.2.2.9): "CC-LLL-LLL-LLLL", country code nation + 10, the
// local parts uniform in [100, 999], [100, 999] and [1000, 9999].
std::string random_phone(ColumnStream& s, int nation);

}  // namespace raydb::tpch
