#include "exec/core/top_groups.h"

#include <algorithm>

#include "exec/core/expression_evaluator.h"
#include "exec/core/order_compare.h"

namespace raydb::exec {

using plan::ExprKind;

namespace {

// The first ORDER BY item's expression, a SELECT item when it names one.
const plan::Expr& first_order_expr(const plan::LogicalQuery& q) {
  const plan::Expr& e = *q.order_by.front().expr;
  if (e.kind == ExprKind::kOutputRef && e.ref_index >= 0 && size_t(e.ref_index) < q.select.size())
    return *q.select[size_t(e.ref_index)];
  return e;
}

// Whether e reads only aggregates and constants; marks the aggregates it reads.
bool reads_only_aggregates(const plan::Expr& e, std::vector<bool>& read) {
  switch (e.kind) {
    case ExprKind::kColumnRef:
    case ExprKind::kGroupRef:
    case ExprKind::kOutputRef:
    case ExprKind::kWindowRef:
    case ExprKind::kInKeySet: return false;
    case ExprKind::kAggregateRef:
      if (e.ref_index < 0 || size_t(e.ref_index) >= read.size()) return false;
      read[size_t(e.ref_index)] = true;
      break;
    default: break;
  }
  for (auto& c : e.children)
    if (!reads_only_aggregates(*c, read)) return false;
  return true;
}

}  // namespace

bool prunable_top_groups(const plan::LogicalQuery& q, std::vector<bool>* aggs_read) {
  if (!q.is_aggregate || q.group_keys.empty() || q.order_by.empty() || q.limit < 0 || q.distinct ||
      !q.windows.empty())
    return false;
  std::vector<bool> read(q.aggregates.size(), false);
  if (q.having && !reads_only_aggregates(*q.having, read)) return false;
  if (!reads_only_aggregates(first_order_expr(q), read)) return false;
  if (aggs_read) *aggs_read = std::move(read);
  return true;
}

std::optional<std::vector<uint32_t>> top_group_candidates(const plan::LogicalQuery& q, const std::vector<Vector>& aggs,
                                                          size_t n) {
  const uint64_t need = uint64_t(q.limit) + uint64_t(q.offset);
  if (n == 0 || need >= n / 2) return std::nullopt;
  const std::vector<Vector> no_keys;
  EvalContext ctx;
  ctx.query = &q;
  ctx.group_keys = &no_keys;
  ctx.aggregates = &aggs;
  ctx.n = n;
  std::vector<uint32_t> rows;
  if (q.having) {
    std::vector<uint8_t> keep;
    evaluate_predicate(*q.having, ctx, keep);
    for (size_t i = 0; i < n; i++)
      if (keep[i]) rows.push_back(uint32_t(i));
  } else {
    rows.resize(n);
    for (size_t i = 0; i < n; i++) rows[i] = uint32_t(i);
  }
  if (need >= rows.size() / 2) return std::nullopt;
  const Vector key = evaluate(first_order_expr(q), ctx);
  const plan::OrderItem& item = q.order_by.front();
  if (need == 0) return std::vector<uint32_t>{};
  // The need-th row in the item's order (ties in any order), then every row not after it.
  std::vector<uint32_t> pick = rows;
  std::nth_element(pick.begin(), pick.begin() + long(need - 1), pick.end(),
                   [&](uint32_t a, uint32_t b) { return compare_order_rows(key, item, a, b) < 0; });
  const uint32_t kth = pick[need - 1];
  std::vector<uint32_t> out;
  for (uint32_t r : rows)
    if (compare_order_rows(key, item, r, kth) <= 0) out.push_back(r);
  if (out.size() >= n / 2) return std::nullopt;
  return out;
}

}  // namespace raydb::exec
