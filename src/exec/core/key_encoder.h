#pragma once
// Encodes rows of several vectors into fixed-width 64-bit words so that equal SQL
// values (NULL counted equal to NULL, as GROUP BY and DISTINCT want) give equal
// words, and decodes words back into vectors. Used by grouping, DISTINCT and joins.
//
//   kInt     the value                 kCode    the dictionary code (same column => same dictionary)
//   kDouble  same_value_bits (-0.0 -> +0.0, every NaN -> one NaN)    kHuge    two words
//   kString  an id from the shared StringInterner
// When every key is kInt/kCode with a known range and no NULLs, keys are packed
// into ONE word as offsets from their minimum (`packed()`), which lets grouping use
// direct arrays.
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// Thread-safe string -> dense id map, owned by one query execution.
class StringInterner {
 public:
  int64_t intern(std::string_view s);
  std::string_view get(int64_t id) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string_view, int64_t> ids_;
  std::deque<std::string> strings_;
};

struct KeySpec {
  Type type;
  VectorKind kind = VectorKind::kInt;
  const Dictionary* dict = nullptr;  // kCode keys
  bool nullable = true;
  bool has_range = false;  // [min, max] known (column statistics or dictionary size)
  int64_t min = 0, max = 0;
};

// The spec of GROUP BY key `e`: a stored column's range (statistics, or dictionary
// codes for VARCHAR) allows packing; other expressions are encoded word by word.
// Every backend builds group keys through this, so their packed words agree.
KeySpec group_key_spec(const plan::Expr& e, const plan::LogicalQuery& q);

class KeyEncoder {
 public:
  KeyEncoder(std::vector<KeySpec> specs, StringInterner* interner);

  int width() const { return width_; }  // words per row
  bool packed() const { return packed_; }
  // Number of distinct packed values (product of ranges) when packed.
  uint64_t packed_range() const { return packed_range_; }

  // Appends width() words per row for rows [0, n) of `keys` (one vector per spec).
  void encode(const std::vector<Vector>& keys, size_t n, std::vector<int64_t>& out) const;
  // Decodes `count` rows of words into one vector per key.
  std::vector<Vector> decode(const int64_t* words, size_t count) const;

  const std::vector<KeySpec>& specs() const { return specs_; }
  // When packed: each key's bit offset in the word (the first key lowest).
  const std::vector<int>& shifts() const { return shifts_; }

 private:
  std::vector<KeySpec> specs_;
  StringInterner* interner_;
  bool packed_ = false;
  bool null_word_ = false;
  int width_ = 0;
  uint64_t packed_range_ = 0;
  std::vector<int> shifts_;
  std::vector<int> word_of_;  // first word of each key when not packed
};

}  // namespace raydb::exec
