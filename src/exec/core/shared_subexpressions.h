#pragma once
// Subexpressions that occur more than once among expressions evaluated over the same
// batch (a GROUP BY's keys and aggregate arguments: TPC-H Q1 reads l_extendedprice in
// three aggregates and computes l_extendedprice * (1 - l_discount) in two): each is
// evaluated once per batch and its vector reused. Equality is structural (same_expr);
// expressions have no side effects and no volatile functions, so equal nodes give
// equal values for the same rows.
#include <cstddef>
#include <utility>
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/expression.h"

namespace raydb::exec {

class SharedSubexpressions {
 public:
  // Finds the repeated subexpressions of `roots` (null entries are skipped).
  explicit SharedSubexpressions(const std::vector<const plan::Expr*>& roots);
  bool any() const { return !nodes_.empty(); }
  // Forgets the previous batch's values.
  void clear();
  // The slot of node e, or -1 when it is not shared.
  int slot(const plan::Expr& e) const;
  const Vector* value(int slot) const { return valid_[size_t(slot)] ? &values_[size_t(slot)] : nullptr; }
  void store(int slot, const Vector& v);

 private:
  std::vector<std::pair<const plan::Expr*, int>> nodes_;  // sorted by address
  std::vector<Vector> values_;
  std::vector<uint8_t> valid_;
};

}  // namespace raydb::exec
