#include "exec/cuda/star_cross_filters.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "common/expression_depth.h"
#include "exec/core/column_predicate.h"
#include "exec/core/filter_program.h"

namespace raydb::exec::cuda {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

// A membership set becomes one constant per key: beyond this many the general path
// runs the query instead (the smaller of the set and its complement counts).
constexpr size_t kMaxMembershipKeys = size_t(1) << 18;

Value key_value(const Type& t, int64_t k) {
  switch (t.id) {
    case TypeId::kInteger: return Value::integer(int32_t(k));
    case TypeId::kDate: return Value::date(int32_t(k));
    default: return Value::bigint(k);
  }
}

struct Rewriter {
  const plan::LogicalQuery& q;
  int root;
  const std::vector<StarDimKey>& dims;

  // A part over one dimension: its rows marked on the host, their keys as an IN list
  // on the foreign key (NOT IN the others when most rows hold).
  FactFilter dimension_part(const ExprPtr& e, const StarDimKey& d) const {
    const Table& t = *q.tables[size_t(d.table)].table;
    const uint64_t n = t.row_count();
    if (n >= (uint64_t(1) << 32)) return std::string("a dimension of 2^32 rows or more");
    std::vector<uint32_t> rows(n);
    std::iota(rows.begin(), rows.end(), 0u);
    std::vector<uint8_t> hit(n, 0);
    if (auto p = ColumnPredicate::compile(*e, q)) {
      p->mark(rows.data(), n, hit.data());
    } else if (auto prog = FilterProgram::compile(*e, q)) {
      prog->mark(rows.data(), n, hit);
    } else {
      return fmt::format("filter {}", e->to_string());
    }
    const size_t hits = size_t(std::count(hit.begin(), hit.end(), uint8_t(1)));
    const bool complement = hits * 2 > n;
    const Column& key = t.column(size_t(d.key_column));
    std::vector<int64_t> keys;
    keys.reserve(complement ? n - hits : hits);
    for (uint64_t i = 0; i < n; i++)
      if (bool(hit[i]) != complement) keys.push_back(key.get_int(i));
    if (keys.empty()) return complement;  // every row holds, or none
    if (keys.size() > kMaxMembershipKeys)
      return fmt::format("filter {} across tables: more than {} keys of {} on either side", e->to_string(),
                         kMaxMembershipKeys, q.tables[size_t(d.table)].alias);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<ExprPtr> items;
    items.reserve(keys.size());
    for (int64_t k : keys) items.push_back(Expr::constant(key_value(key.type(), k)));
    return Expr::in_list(d.fact_fk, std::move(items), complement);
  }

  FactFilter run(const ExprPtr& e) const {
    ExpressionDepthGuard depth_guard;
    const uint64_t used = plan::tables_used(*e);
    if (used == (uint64_t(1) << root)) return e;
    for (const StarDimKey& d : dims)
      if (used == (uint64_t(1) << d.table)) return dimension_part(e, d);
    if (e->kind == ExprKind::kNot) {
      FactFilter c = run(e->children[0]);
      if (auto* b = std::get_if<bool>(&c)) return !*b;
      if (auto* x = std::get_if<ExprPtr>(&c)) return Expr::logical_not(*x);
      return c;
    }
    if (e->kind == ExprKind::kAnd || e->kind == ExprKind::kOr) {
      const bool is_and = e->kind == ExprKind::kAnd;
      std::vector<ExprPtr> kept;
      for (const ExprPtr& child : e->children) {
        FactFilter c = run(child);
        if (auto* why = std::get_if<std::string>(&c)) return *why;
        if (auto* b = std::get_if<bool>(&c)) {
          if (*b != is_and) return *b;  // false decides an AND, true an OR
          continue;                     // the neutral constant drops out
        }
        kept.push_back(std::get<ExprPtr>(c));
      }
      if (kept.empty()) return is_and;
      if (kept.size() == 1) return kept[0];
      return Expr::conjunction(is_and, std::move(kept));
    }
    return fmt::format("filter {} across tables", e->to_string());
  }
};

}  // namespace

FactFilter fact_filter_of_residual(const ExprPtr& residual, const plan::LogicalQuery& q, int root,
                                   const std::vector<StarDimKey>& dims) {
  return Rewriter{q, root, dims}.run(residual);
}

}  // namespace raydb::exec::cuda
