#pragma once
// A string function of one VARCHAR column and constants (substr(c_phone, 1, 2),
// upper(name), length(s), ...) for a GPU program: the host computes it once per entry
// of the column's dictionary with the CPU's own function (exec/core/scalar_functions),
// so the device only maps codes through a lookup table and the results are the CPU's
// by construction. VARCHAR results become codes of a new sorted dictionary of the
// distinct results (which then joins the program's string domain); other results are
// the values themselves.
#include <memory>
#include <optional>

#include "exec/cuda/general/expression_compiler.h"

namespace raydb::exec::cuda::general {

class DictionaryFunction {
 public:
  // The function's value per code of the column's dictionary, or nullopt when `e` is not
  // a string function of exactly one VARCHAR column and constants. Throws the CPU
  // evaluator's error when an entry raises one (the caller declines the expression).
  static std::optional<DictionaryFunction> evaluate(const plan::Expr& e, const plan::LogicalQuery& q);

  const plan::Expr* column = nullptr;  // the column reference the function reads
  HostLookup map;                      // code -> value, or code of `results`; NULL where the function gives NULL
  std::shared_ptr<const Dictionary> results;  // VARCHAR results only
};

}  // namespace raydb::exec::cuda::general
