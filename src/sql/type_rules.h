#pragma once
// The typing rules of plan/logical/expression.h and logical_query.h as functions,
// so the binder applies them in one place. Each returns std::nullopt when the
// operation is not defined for the operand types; the binder words the error.
#include <optional>

#include "plan/logical/expression.h"
#include "plan/logical/logical_query.h"

namespace raydb::sql {

// Result type of l op r; NULL operands take the other operand's type.
std::optional<Type> arithmetic_type(plan::ArithOp op, const Type& l, const Type& r);
// Result type of -x.
std::optional<Type> negate_type(const Type& t);
// Whether values of these types can be compared (after the binder's string->DATE casts).
bool comparable(const Type& a, const Type& b);
// The type both of a and b convert to (CASE branches); NULL yields to the other.
std::optional<Type> common_type(const Type& a, const Type& b);
// Result type of an aggregate over `arg` (ignored for COUNT(*)).
std::optional<Type> aggregate_type(plan::AggFunc f, const Type& arg);
// Whether a non-constant value of type `from` may be cast to `to` at run time
// (constants are converted by the binder itself).
bool castable(const Type& from, const Type& to);

}  // namespace raydb::sql
