#pragma once
// Exact evaluation of constant subexpressions at bind time. Each function returns
// std::nullopt when it declines: the result would overflow its type, or divides by
// zero. The binder then keeps the expression and the executor raises the error at
// run time, so constant and column expressions fail the same way.
#include <optional>

#include "plan/logical/expression.h"

namespace raydb::sql {

// l op r with result type `result` (from arithmetic_type).
std::optional<Value> fold_arithmetic(plan::ArithOp op, const Value& l, const Value& r, const Type& result);
std::optional<Value> fold_negate(const Value& v, const Type& result);
// CAST(v AS to); also string -> DATE for comparisons. Rounds half away from zero
// when a decimal or double loses digits (as PostgreSQL's numeric does).
std::optional<Value> cast_constant(const Value& v, const Type& to);

}  // namespace raydb::sql
