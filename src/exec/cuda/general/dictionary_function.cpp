#include "exec/cuda/general/dictionary_function.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "exec/core/scalar_functions.h"
#include "exec/cuda/general/dictionary_function_cache.h"
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

// The function once per entry of `dict` (codes 0..n-1), each constant repeated n
// times; VARCHAR results as codes of the sorted distinct results.
std::shared_ptr<const DictionaryFunctionCache::Tables> per_code(const Expr& e, const Expr& col,
                                                                const Dictionary* dict) {
  const size_t n = dict->size();
  std::vector<Vector> args;
  for (auto& child : e.children) {
    if (child.get() != &col) {
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
  auto t = std::make_shared<DictionaryFunctionCache::Tables>();
  HostLookup& map = t->map;
  map.values.assign(n, 0);
  map.nulls.assign(n, 0);
  for (size_t k = 0; k < n; k++) map.nulls[k] = r.is_null(k) ? 1 : 0;
  if (e.type.id != TypeId::kVarchar) {
    if (r.kind != VectorKind::kInt) return nullptr;  // only exact integer results (length, strpos)
    for (size_t k = 0; k < n; k++) map.values[k] = map.nulls[k] ? 0 : r.ints[k];
    return t;
  }
  // Few distinct results as a rule (substr(c_phone, 1, 2): 25 of 3 M at SF 20): each
  // entry's result by hash first, so only the distinct ones are sorted.
  std::unordered_map<std::string_view, int64_t> slot;
  std::vector<std::string> distinct;
  for (size_t k = 0; k < n; k++)
    if (!map.nulls[k] && slot.emplace(r.string_at(k), 0).second) distinct.emplace_back(r.string_at(k));
  t->results = StringDomain::merge({}, distinct);  // sorted, distinct: codes order like the strings
  for (auto& [s, code] : slot) code = int64_t(*t->results->find(s));
  for (size_t k = 0; k < n; k++)
    if (!map.nulls[k]) map.values[k] = slot.at(r.string_at(k));
  return t;
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
  std::string key = e.to_string() + " " + e.type.to_string();  // the function and its constants
  for (auto& child : e.children) key += " " + child->type.to_string();
  if (auto known = DictionaryFunctionCache::find(c.dictionary_ptr(), key)) {
    DictionaryFunction f;
    f.column = col;
    f.map.shared = std::shared_ptr<const HostLookup>(known, &known->map);
    f.results = known->results;
    return f;
  }
  auto tables = per_code(e, *col, dict);
  if (!tables) return std::nullopt;
  DictionaryFunctionCache::store(c.dictionary_ptr(), key, tables);
  DictionaryFunction f;
  f.column = col;
  f.map.shared = std::shared_ptr<const HostLookup>(tables, &tables->map);
  f.results = tables->results;
  return f;
}

}  // namespace raydb::exec::cuda::general
