#include "exec/cuda/general/dictionary_function.h"

#include <string>
#include <vector>

#include "exec/core/scalar_functions.h"
#include "exec/cuda/general/string_domain.h"

namespace raydb::exec::cuda::general {

using plan::Expr;
using plan::ExprKind;

namespace {

// The one VARCHAR column reference among e's children when every other child is a
// constant; nullptr otherwise.
const Expr* only_string_column(const Expr& e) {
  const Expr* column = nullptr;
  for (auto& c : e.children) {
    if (c->kind == ExprKind::kConstant) continue;
    if (c->kind != ExprKind::kColumnRef || c->type.id != TypeId::kVarchar || column) return nullptr;
    column = c.get();
  }
  return column;
}

}  // namespace

std::optional<DictionaryFunction> DictionaryFunction::evaluate(const Expr& e, const plan::LogicalQuery& q) {
  // The string functions: plan::ScalarFunc lists them last (as evaluate_function_per_code).
  if (e.kind != ExprKind::kFunction || e.func < plan::ScalarFunc::kSubstr) return std::nullopt;
  const Expr* col = only_string_column(e);
  if (!col) return std::nullopt;
  const Column& c = q.tables[size_t(col->table_index)].table->column(size_t(col->column_index));
  const Dictionary* dict = c.dictionary();
  if (!dict) return std::nullopt;
  const size_t n = dict->size();
  // Every dictionary entry once (codes 0..n-1), each constant repeated n times.
  std::vector<Vector> args;
  for (auto& child : e.children) {
    if (child.get() != col) {
      args.push_back(Vector::constant(child->value, child->type, n));
      continue;
    }
    Vector codes(child->type, n);
    codes.kind = VectorKind::kCode;
    codes.dict = dict;
    codes.ints.resize(n);
    for (size_t k = 0; k < n; k++) codes.ints[k] = int64_t(k);
    args.push_back(std::move(codes));
  }
  Vector r = evaluate_function(e, args, n);
  DictionaryFunction f;
  f.column = col;
  f.map.values.assign(n, 0);
  f.map.nulls.assign(n, 0);
  for (size_t k = 0; k < n; k++) f.map.nulls[k] = r.is_null(k) ? 1 : 0;
  if (e.type.id != TypeId::kVarchar) {
    if (r.kind != VectorKind::kInt) return std::nullopt;  // only exact integer results (length, strpos)
    for (size_t k = 0; k < n; k++) f.map.values[k] = f.map.nulls[k] ? 0 : r.ints[k];
    return f;
  }
  std::vector<std::string> distinct;
  for (size_t k = 0; k < n; k++)
    if (!f.map.nulls[k]) distinct.emplace_back(r.string_at(k));
  f.results = StringDomain::merge({}, distinct);  // sorted, distinct: codes order like the strings
  for (size_t k = 0; k < n; k++)
    if (!f.map.nulls[k]) f.map.values[k] = int64_t(*f.results->find(r.string_at(k)));
  return f;
}

}  // namespace raydb::exec::cuda::general
