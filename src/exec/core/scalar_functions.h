#pragma once
// Scalar functions (plan::ExprKind::kFunction) over evaluated argument vectors, for
// the vectorized evaluator. One file per family: numeric_functions.cpp,
// date_functions.cpp, string_functions.cpp. Strings come out as kString vectors
// whose views point into an arena the result vector owns (vector.h).
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/expression.h"

namespace raydb::exec {

// e.func over args (one vector per child of e, each of n rows).
Vector evaluate_function(const plan::Expr& e, std::vector<Vector>& args, size_t n);
// The same; a string function of one dictionary column and constants is computed once
// per dictionary entry when the batch is at least as long as the dictionary.
Vector evaluate_function_per_code(const plan::Expr& e, std::vector<Vector>& args, size_t n);

Vector numeric_function(const plan::Expr& e, std::vector<Vector>& args, size_t n);
Vector date_function(const plan::Expr& e, std::vector<Vector>& args, size_t n);
Vector timestamp_function(const plan::Expr& e, std::vector<Vector>& args, size_t n);
Vector string_function(const plan::Expr& e, std::vector<Vector>& args, size_t n);

// The union of the arguments' NULL masks (strict functions), empty when none is NULL.
std::vector<uint8_t> strict_nulls(const std::vector<Vector>& args, size_t n);

}  // namespace raydb::exec
