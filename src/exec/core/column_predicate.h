#pragma once
// A single-column predicate compiled against one stored column: the set of stored
// values (integers, decimal-scaled integers, day numbers or dictionary codes) for
// which it is TRUE, as sorted disjoint ranges or a bitmap over the column's
// [min, max]. Constants are mapped into the column's domain exactly (decimal scales
// by integer arithmetic, strings through the order-preserving dictionary), so the
// hot loop compares stored integers only.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "exec/core/cuckoo_set.h"

#include "plan/logical/logical_query.h"
#include "storage/column.h"

namespace raydb::exec {

class ColumnPredicate {
 public:
  // Compiles `e` when it is a predicate over a single non-DOUBLE column of table
  // `table_index` and constants (compare, BETWEEN, IN, LIKE, and AND/OR/NOT of such
  // on the same column); nullopt otherwise (the caller evaluates it generically).
  static std::optional<ColumnPredicate> compile(const plan::Expr& e, const plan::LogicalQuery& q);

  int table_index() const { return table_; }
  const Column& column() const { return *column_; }
  bool always_false() const { return ranges_.empty(); }

  // Keeps the rows of `rows[0..n)` that satisfy the predicate, compacting `rows`
  // (and the parallel arrays in `others`) in place; returns the new count.
  size_t filter(uint32_t* rows, size_t n) const;
  // Same over the dense row range [begin, begin+n): writes passing row ids to `out`.
  size_t filter_range(uint32_t begin, size_t n, uint32_t* out) const;
  // True when stored value v satisfies the predicate.
  bool test(int64_t v) const;
  // out[i] = 1 when row rows[i] satisfies the predicate, else 0 (FilterProgram's leaves).
  void mark(const uint32_t* rows, size_t n, uint8_t* out) const;
  // Fraction of the column's [min, max] domain covered (for ordering filters).
  double coverage() const;
  // The stored values that pass, as inclusive sorted disjoint ranges (other backends and
  // index scans compile these into their own form).
  const std::vector<std::pair<int64_t, int64_t>>& ranges() const { return ranges_; }
  // The ranges moved out of a predicate that is used no more (a key set's can be
  // millions: no copy).
  std::vector<std::pair<int64_t, int64_t>> take_ranges() && { return std::move(ranges_); }

 private:
  using Ranges = std::vector<std::pair<int64_t, int64_t>>;  // inclusive, sorted, disjoint
  static std::optional<Ranges> compile_ranges(const plan::Expr& e, const plan::LogicalQuery& q, int& table,
                                              int& column);
  void finalize();
  template <typename T>
  size_t filter_impl(const T* data, uint32_t* rows, size_t n) const;
  template <typename T>
  void mark_impl(const T* data, const uint32_t* rows, size_t n, uint8_t* out) const;
  template <typename T>
  size_t filter_range_impl(const T* data, uint32_t begin, size_t n, uint32_t* out) const;

  // Calls body(test) with the cheapest exact membership test of the set as a
  // callable int64_t -> bool, so each hot loop is compiled once per kind of set: one
  // range, a bitmap, up to kSmallRanges ranges compared branch-free, a cuckoo set of
  // far-apart values, or bisection.
  template <typename Body>
  auto with_test(Body&& body) const {
    if (ranges_.size() == 1) {
      const uint64_t lo = uint64_t(ranges_[0].first), width = uint64_t(ranges_[0].second) - lo;
      return body([lo, width](int64_t v) { return uint64_t(v) - lo <= width; });
    }
    if (!bitmap_.empty()) {
      const uint64_t* bits = bitmap_.data();
      const uint64_t base = uint64_t(bitmap_base_), nbits = uint64_t(bitmap_.size()) * 64;
      return body([bits, base, nbits](int64_t v) {
        const uint64_t off = uint64_t(v) - base;  // below the base wraps past nbits
        return off < nbits && ((bits[off >> 6] >> (off & 63)) & 1);
      });
    }
    if (ranges_.size() <= size_t(kSmallRanges)) {
      // Padded with copies of the first range, which change nothing; no branch per range.
      std::array<uint64_t, kSmallRanges> lo{}, width{};
      for (size_t k = 0; k < size_t(kSmallRanges); k++) {
        const auto& r = ranges_[k < ranges_.size() ? k : 0];
        lo[k] = uint64_t(r.first);
        width[k] = uint64_t(r.second) - uint64_t(r.first);
      }
      return body([lo, width](int64_t v) {
        bool ok = false;
        for (int k = 0; k < kSmallRanges; k++) ok |= uint64_t(v) - lo[k] <= width[k];
        return ok;
      });
    }
    if (cuckoo_) {
      const CuckooSet* set = cuckoo_.get();
      return body([set](int64_t v) { return set->contains(uint64_t(v)); });
    }
    return body([this](int64_t v) { return test(v); });
  }

  static constexpr int kSmallRanges = 8;
  int table_ = -1;
  const Column* column_ = nullptr;
  Ranges ranges_;
  int64_t bitmap_base_ = 0;
  std::vector<uint64_t> bitmap_;  // over [bitmap_base_, bitmap_base_ + 64*size) when not empty
  std::shared_ptr<const CuckooSet> cuckoo_;  // many single values over a wide span
};

}  // namespace raydb::exec
