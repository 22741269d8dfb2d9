#pragma once
// The constants of a long IN list, for a GPU program's set instruction (kPInSet for
// integers: a sorted array searched per row; strings: a table over the program's
// string domain, program_strings.h). A program of one comparison per value would cost
// the list's length per row; a subquery made into a list (IN (SELECT ...)) can hold
// millions of values.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/logical/expression.h"

namespace raydb::exec::cuda::general {

class InSet {
 public:
  // The items of `e` (x IN (items)) that x of type `x` (stored as an int64 at its scale)
  // can equal, each as x's stored integer: an item equals x exactly when the CPU's
  // comparison (both scaled to the larger scale in int128) says so, so items with
  // digits below x's scale or beyond int64 are left out. nullopt when an item is not
  // a constant or not an exact number (DOUBLE, VARCHAR).
  static std::optional<InSet> integers(const plan::Expr& e, const Type& x);
  // The string items of `e`; nullopt when an item is not a VARCHAR (or NULL) constant.
  static std::optional<InSet> strings(const plan::Expr& e);

  std::vector<int64_t> values;     // integers(): sorted, distinct
  std::vector<std::string> texts;  // strings()
  bool has_null = false;           // a NULL item: "not found" is NULL, not FALSE
};

}  // namespace raydb::exec::cuda::general
