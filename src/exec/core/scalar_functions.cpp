#include "exec/core/scalar_functions.h"

#include "common/error.h"

namespace raydb::exec {

using plan::ScalarFunc;

std::vector<uint8_t> strict_nulls(const std::vector<Vector>& args, size_t n) {
  std::vector<uint8_t> nulls;
  for (const Vector& a : args) {
    if (!a.has_nulls()) continue;
    if (nulls.empty()) nulls.assign(n, 0);
    for (size_t i = 0; i < n; i++) nulls[i] |= a.nulls[i];
  }
  return nulls;
}

Vector evaluate_function(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  switch (e.func) {
    case ScalarFunc::kAbs:
    case ScalarFunc::kRound:
    case ScalarFunc::kFloor:
    case ScalarFunc::kCeil: return numeric_function(e, args, n);
    case ScalarFunc::kYear:
    case ScalarFunc::kMonth:
    case ScalarFunc::kDay:
    case ScalarFunc::kQuarter:
    case ScalarFunc::kDayOfWeek:
    case ScalarFunc::kDayOfYear:
    case ScalarFunc::kTruncYear:
    case ScalarFunc::kTruncQuarter:
    case ScalarFunc::kTruncMonth:
    case ScalarFunc::kAddMonths: return date_function(e, args, n);
    default: return string_function(e, args, n);
  }
}

}  // namespace raydb::exec
