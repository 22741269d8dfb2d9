#include "exec/core/scalar_functions.h"

#include <optional>

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

namespace {

// A string function of one dictionary column and constants, e.g. upper(c_city) or
// substr(c_phone, 1, 2), on a batch at least as long as the dictionary: computed
// once per dictionary entry, then picked per row by code (as eval_like matches
// each entry once), so a batch pays for its distinct values, not its rows.
std::optional<Vector> per_code(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  if (n == 0) return std::nullopt;
  size_t column = args.size();
  for (size_t k = 0; k < args.size(); k++) {
    if (e.children[k]->kind == plan::ExprKind::kConstant) continue;
    if (column != args.size() || args[k].kind != VectorKind::kCode || args[k].has_nulls()) return std::nullopt;
    column = k;
  }
  if (column == args.size() || args[column].dict->size() > n) return std::nullopt;
  const size_t d = args[column].dict->size();
  std::vector<uint32_t> zeros(d, 0), codes(n);
  std::vector<Vector> entries;
  for (size_t k = 0; k < args.size(); k++) {
    if (k != column) {
      entries.push_back(args[k].select(zeros.data(), d));  // the constant, d times
      continue;
    }
    Vector all = args[k].select(zeros.data(), d);
    for (size_t c = 0; c < d; c++) all.ints[c] = int64_t(c);  // every entry of the dictionary
    entries.push_back(std::move(all));
  }
  Vector per_entry = evaluate_function(e, entries, d);
  for (size_t i = 0; i < n; i++) codes[i] = uint32_t(args[column].ints[i]);
  return per_entry.select(codes.data(), n);
}

}  // namespace

Vector evaluate_function_per_code(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  if (e.func >= ScalarFunc::kSubstr) {  // the string functions: plan::ScalarFunc lists them last
    if (auto v = per_code(e, args, n)) return std::move(*v);
  }
  return evaluate_function(e, args, n);
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
    case ScalarFunc::kHour:
    case ScalarFunc::kMinute:
    case ScalarFunc::kSecond:
    case ScalarFunc::kTruncMicros:
    case ScalarFunc::kAddMicros:
    case ScalarFunc::kAddMonthsTs: return timestamp_function(e, args, n);
    default: return string_function(e, args, n);
  }
}

}  // namespace raydb::exec
