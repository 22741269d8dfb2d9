#include "exec/index/scan_filter.h"

#include <algorithm>

#include "exec/core/column_predicate.h"

namespace raydb::exec {

namespace rs = access::rt_scan;
using plan::ExprKind;

namespace {

// A compiled single-column predicate as a ScanExpr leaf: its TRUE set of stored
// values (inclusive ranges) as BETWEENs, or one IN of points.
rs::ScanExpr leaf(uint32_t position, const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  if (ranges.empty()) return rs::ScanExpr::constant(false);
  if (std::all_of(ranges.begin(), ranges.end(), [](auto& r) { return r.first == r.second; })) {
    std::vector<int64_t> points;
    for (auto& r : ranges) points.push_back(r.first);
    return points.size() == 1 ? rs::ScanExpr::pred(position, rs::CompareOp::kEqual, points)
                              : rs::ScanExpr::pred(position, rs::CompareOp::kIn, points);
  }
  std::vector<rs::ScanExpr> parts;
  for (auto& [lo, hi] : ranges) parts.push_back(rs::ScanExpr::pred(position, rs::CompareOp::kBetween, {lo, hi}));
  return parts.size() == 1 ? std::move(parts[0]) : rs::ScanExpr::any_of(std::move(parts));
}

std::optional<rs::ScanExpr> translate(const plan::Expr& e, const plan::LogicalQuery& q, int table,
                                      const std::vector<int>& columns) {
  if (auto p = ColumnPredicate::compile(e, q)) {
    if (p->table_index() != table) return std::nullopt;
    const Table& t = *q.tables[size_t(table)].table;
    for (size_t i = 0; i < columns.size(); i++)
      if (&t.column(size_t(columns[i])) == &p->column()) return leaf(uint32_t(i), p->ranges());
    return std::nullopt;  // a column the index does not hold
  }
  if (e.kind != ExprKind::kAnd && e.kind != ExprKind::kOr && e.kind != ExprKind::kNot) return std::nullopt;
  std::vector<rs::ScanExpr> children;
  for (auto& c : e.children) {
    auto x = translate(*c, q, table, columns);
    if (!x) return std::nullopt;
    children.push_back(std::move(*x));
  }
  if (e.kind == ExprKind::kNot) return rs::ScanExpr::negate(std::move(children.at(0)));
  return e.kind == ExprKind::kAnd ? rs::ScanExpr::all_of(std::move(children)) : rs::ScanExpr::any_of(std::move(children));
}

}  // namespace

std::optional<ScanFilter> scan_filter_for(const std::vector<plan::ExprPtr>& filters, const plan::LogicalQuery& q,
                                          int table, const std::vector<int>& columns) {
  ScanFilter out;
  std::vector<rs::ScanExpr> parts;
  for (auto& f : filters)
    if (auto x = translate(*f, q, table, columns)) {
      parts.push_back(std::move(*x));
      out.covered.push_back(f);
    }
  if (parts.empty()) return std::nullopt;
  out.expr = parts.size() == 1 ? std::move(parts[0]) : rs::ScanExpr::all_of(std::move(parts));
  return out;
}

}  // namespace raydb::exec
