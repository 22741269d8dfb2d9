#pragma once
// The distinct non-NULL values of a subquery's column as one sorted array of stored
// words, for `x [NOT] IN (SELECT ...)` and the decorrelated [NOT] EXISTS (ExprKind::
// kInKeySet). Built once when the subquery runs and shared by every consumer (the
// evaluator, ColumnPredicate, block skipping, the CUDA programs) instead of one
// constant expression per key, which cost seconds to build and compile again per
// consumer when a subquery gave millions of keys.
//
// Words are the stored integers of INTEGER/BIGINT (the value), DATE (days) and
// TIMESTAMP (microseconds). When the keys are dense enough in [min, max] a bitmap over
// that span answers membership in one load; otherwise binary search of the array.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/default_init_allocator.h"
#include "raydb/types.h"

namespace raydb::plan {

// A run of consecutive keys [first, second], inclusive. Trivial (unlike std::pair), so
// a million of them are not zeroed on one thread before the parallel fill writes them.
struct KeyRun {
  int64_t first, second;
};

class KeySet {
 public:
  // Sets with fewer distinct keys stay IN lists of constants (short lists are cheap and
  // index lookups and the star kernels know them).
  static constexpr size_t kMinKeys = 64;

  // `words` in any order, duplicates allowed; `has_null`: the subquery gave a NULL.
  static std::shared_ptr<const KeySet> make(Type type, FillVector<int64_t> words, bool has_null);
  static std::shared_ptr<const KeySet> make(Type type, const std::vector<int64_t>& words, bool has_null);
  static std::shared_ptr<const KeySet> make(Type type, std::initializer_list<int64_t> words, bool has_null);
  // Whether values of `t` can be held as words (INTEGER, BIGINT, DATE, TIMESTAMP).
  static bool holds(const Type& t);
  // Whether x of type `x` compares with this set's words directly (same word family:
  // INTEGER/BIGINT together, DATE with DATE, TIMESTAMP with TIMESTAMP).
  bool comparable_with(const Type& x) const;

  const Type& type() const { return type_; }
  size_t size() const { return words_.size(); }
  bool empty() const { return words_.empty(); }
  bool has_null() const { return has_null_; }
  int64_t min() const { return words_.front(); }  // non-empty sets only
  int64_t max() const { return words_.back(); }
  const FillVector<int64_t>& words() const { return words_; }  // sorted, distinct
  // Runs of consecutive words as inclusive sorted disjoint ranges (order keys come in
  // runs of up to 8: fewer ranges than keys for ColumnPredicate and zone maps).
  const FillVector<KeyRun>& runs() const { return runs_; }
  // The bitmap over [bitmap_base(), bitmap_base() + 64 * bitmap().size()); empty when
  // the keys are too sparse for one.
  const std::vector<uint64_t>& bitmap() const { return bitmap_; }
  int64_t bitmap_base() const { return bitmap_base_; }

  bool contains(int64_t w) const {
    if (!bitmap_.empty()) {
      const uint64_t off = uint64_t(w) - uint64_t(bitmap_base_);  // below the base wraps past the end
      return off < uint64_t(bitmap_.size()) * 64 && ((bitmap_[off >> 6] >> (off & 63)) & 1);
    }
    return contains_sorted(w);
  }
  // "<n TYPE keys #fingerprint>" for EXPLAIN and error messages. The fingerprint (a hash
  // of the words) keeps two sets of one size apart where a text names an expression.
  std::string describe() const;

 private:
  KeySet() = default;
  bool contains_sorted(int64_t w) const;
  void build_bitmap();

  Type type_;
  FillVector<int64_t> words_;
  FillVector<KeyRun> runs_;
  std::vector<uint64_t> bitmap_;
  int64_t bitmap_base_ = 0;
  uint64_t fingerprint_ = 0;
  bool has_null_ = false;
};

using KeySetPtr = std::shared_ptr<const KeySet>;

}  // namespace raydb::plan
