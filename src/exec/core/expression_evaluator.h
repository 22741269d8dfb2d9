#pragma once
// Vectorized evaluation of bound expressions over one batch of rows.
#include <cstdint>
#include <vector>

#include "exec/core/shared_subexpressions.h"
#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// The joined rows of one batch: for each table index of the query, the row id of
// that table in each result row (nullptr for tables not bound yet).
struct BatchRows {
  size_t n = 0;
  std::vector<const uint32_t*> rows;
};

// What an expression can read: base columns through `batch`, or, after
// aggregation, group keys and aggregate results; ORDER BY may read SELECT outputs.
struct EvalContext {
  const plan::LogicalQuery* query = nullptr;
  const BatchRows* batch = nullptr;
  const std::vector<Vector>* group_keys = nullptr;
  const std::vector<Vector>* aggregates = nullptr;
  const std::vector<Vector>* outputs = nullptr;
  const std::vector<Vector>* windows = nullptr;  // window function results (kWindowRef)
  // Repeated subexpressions of this batch, evaluated once (optional; per thread).
  SharedSubexpressions* shared = nullptr;
  size_t n = 0;
};

// Evaluates `e` for the n rows of the context.
Vector evaluate(const plan::Expr& e, const EvalContext& ctx);
// keep[i] = 1 where predicate `e` is TRUE (not FALSE, not NULL).
void evaluate_predicate(const plan::Expr& e, const EvalContext& ctx, std::vector<uint8_t>& keep);
// Converts a vector to type `to` (numeric widening/rescaling, casts). Throws on
// impossible conversions and on values that do not fit.
Vector convert(Vector v, const Type& to);
// SQL LIKE with % and _ (a _ matches one UTF-8 character); case-sensitive.
bool like_match(std::string_view text, std::string_view pattern);
// True when `e` can evaluate to NULL (NULL constants, aggregates, CASE without ELSE...).
bool may_be_null(const plan::Expr& e);

}  // namespace raydb::exec
