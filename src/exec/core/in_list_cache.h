#pragma once
// The sorted constants of a long `x IN (c1, ..., cn)`, prepared once per thread and
// list instead of once per batch. IN (subquery) and the decorrelated [NOT] EXISTS bind
// to a list of every distinct value the subquery gave (100,000 customer keys in TPC-H
// Q22), and the evaluator turned each item into its stored word for every 2,048-row
// batch, which cost far more than the lookups.
// An entry holds references to the list's items, so while it lives the items' addresses
// name the same immutable constants; a list is recognized by its node and its items'
// addresses (a plan freed and another built at the same addresses has other items).
#include <cstdint>
#include <string_view>
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/expression.h"

namespace raydb::exec {

struct InListItems {
  bool strings = false;             // texts (VARCHAR items), else words
  std::vector<int64_t> words;       // sorted stored words, of x's scale
  std::vector<std::string_view> texts;  // sorted, views into the items' values
};

class InListCache {
 public:
  static constexpr size_t kMinItems = 64;  // shorter lists are prepared per batch as before
  // The prepared items of kInList `e` tested against `x`, or null when the list is
  // short or its items are not all non-NULL constants comparable with x's stored words
  // (integer kinds of x's scale) or strings (x a string or dictionary code).
  static const InListItems* find(const plan::Expr& e, const Vector& x);
  // True when this thread prepared kInList `e` before and found its items all non-NULL
  // constants (may_be_null asks per batch; walking 100,000 items each time cost as much
  // as the filter).
  static bool items_known_non_null(const plan::Expr& e);
};

}  // namespace raydb::exec
