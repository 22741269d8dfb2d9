#pragma once
// The values of a column's [min, max] that pass `x IN set` (or `x NOT IN set`, negated)
// for a KeySet (plan/logical/key_set.h), as sorted disjoint inclusive ranges read in
// place from the set's runs: range i in O(1), counts in O(log n), and no copy of the
// million runs a semi or anti join's set holds at TPC-H SF 20. ColumnPredicate compiles
// a key set's ranges from it; the star kernels build their bitmap from it directly.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "plan/logical/expression.h"
#include "plan/logical/key_set.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

class KeySetWindow {
 public:
  // `min > max` (an empty column): no ranges. Reads `set` in place: it must outlive the window.
  KeySetWindow(const plan::KeySet& set, bool negated, int64_t min, int64_t max);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Range i (i < size()); the ranges ascend and never touch (runs are maximal). Inline:
  // the star bitmap's builder calls it once per range.
  std::pair<int64_t, int64_t> at(size_t i) const {
    const plan::KeyRun* runs = runs_;
    if (!negated_) {
      const auto& r = runs[first_ + i];
      return {r.first < min_ ? min_ : r.first, r.second > max_ ? max_ : r.second};
    }
    if (first_ == end_) return {min_, max_};
    if (lead_ && i == 0) return {min_, runs[first_].first - 1};
    const size_t j = first_ + i - size_t(lead_);  // the run before this gap
    // No overflow: a run followed by a gap ends below max, and a run after one starts above min.
    if (j + 1 < end_) return {runs[j].second + 1, runs[j + 1].first - 1};
    return {runs[j].second + 1, max_};
  }
  int64_t lo() const { return at(0).first; }            // non-empty windows only
  int64_t hi() const { return at(size_ - 1).second; }
  // The fraction of [min, max] inside the ranges, as ColumnPredicate::coverage gives it.
  double coverage() const;
  // All ranges, materialized (what ColumnPredicate holds).
  std::vector<std::pair<int64_t, int64_t>> ranges() const;

 private:
  const plan::KeySet* set_;
  const plan::KeyRun* runs_;  // the set's
  bool negated_;
  int64_t min_, max_;
  size_t first_ = 0, end_ = 0;  // the runs overlapping [min, max]
  bool lead_ = false;           // negated: a gap before the first run
  size_t size_ = 0;
};

// `x IN set` or `NOT (x IN set)` / `x NOT IN set` over a column, where ColumnPredicate
// compiles it to the set's window (no NULL in the set, a comparable column type).
struct KeySetPredicate {
  int table = -1, column = -1;
  plan::KeySetPtr set;
  bool negated = false;
};
std::optional<KeySetPredicate> match_key_set_predicate(const plan::Expr& e, const plan::LogicalQuery& q);

}  // namespace raydb::exec
