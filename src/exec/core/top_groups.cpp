#include "exec/core/top_groups.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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

// A DOUBLE as an unsigned key in the ORDER BY's ascending order (order_compare.h):
// -0.0 and +0.0 equal, every NaN one value above +inf.
uint64_t double_key(double x) {
  if (std::isnan(x)) return ~uint64_t(0);
  if (x == 0) x = 0;
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return (b >> 63) ? ~b : b | (uint64_t(1) << 63);
}

// Of `rows` (ascending), those whose value of `vals` (one per row, ascending order)
// is not above the k-th smallest (k <= vals.size()).
template <typename T>
std::vector<uint32_t> not_above_kth(std::vector<T> vals, const std::vector<uint32_t>& rows, size_t k) {
  std::vector<T> pick = vals;
  std::nth_element(pick.begin(), pick.begin() + long(k - 1), pick.end());
  const T kth = pick[k - 1];
  std::vector<uint32_t> out;
  for (size_t i = 0; i < rows.size(); i++)
    if (!(kth < vals[i])) out.push_back(rows[i]);
  return out;
}

// Values of `rows` (non-NULL in `key`) as keys whose ascending order is the item's.
template <typename T, typename Get>
std::vector<T> order_keys(const std::vector<uint32_t>& rows, bool descending, Get get) {
  std::vector<T> v(rows.size());
  for (size_t i = 0; i < rows.size(); i++) v[i] = descending ? ~get(rows[i]) : get(rows[i]);
  return v;
}

// The non-NULL rows not after the k-th of them under `item` (flat keys: a comparison
// through the generic comparator per step cost 24 ms over 763 K groups).
std::vector<uint32_t> non_null_not_after(const Vector& key, const plan::OrderItem& item,
                                         const std::vector<uint32_t>& rows, size_t k) {
  const bool desc = item.descending;
  switch (key.kind) {
    case VectorKind::kInt:
    case VectorKind::kCode:  // signed order as unsigned: flip the sign bit
      return not_above_kth(order_keys<uint64_t>(rows, desc, [&](uint32_t r) { return uint64_t(key.ints[r]) ^ (uint64_t(1) << 63); }), rows, k);
    case VectorKind::kHuge:
      return not_above_kth(order_keys<unsigned __int128>(rows, desc, [&](uint32_t r) {
        return (unsigned __int128)key.huge[r] ^ ((unsigned __int128)1 << 127);
      }), rows, k);
    case VectorKind::kDouble:
      return not_above_kth(order_keys<uint64_t>(rows, desc, [&](uint32_t r) { return double_key(key.doubles[r]); }), rows, k);
    case VectorKind::kString: break;
  }
  std::vector<uint32_t> pick = rows;
  std::nth_element(pick.begin(), pick.begin() + long(k - 1), pick.end(),
                   [&](uint32_t a, uint32_t b) { return compare_order_rows(key, item, a, b) < 0; });
  const uint32_t kth = pick[k - 1];
  std::vector<uint32_t> out;
  for (uint32_t r : rows)
    if (compare_order_rows(key, item, r, kth) <= 0) out.push_back(r);
  return out;
}

// Of `rows` (ascending), those not after the need-th under `item` (ties kept). NULLs
// tie with each other and come before or after every value as the item says.
std::vector<uint32_t> rows_not_after_kth(const Vector& key, const plan::OrderItem& item,
                                         const std::vector<uint32_t>& rows, size_t need) {
  std::vector<uint32_t> nulls, values;
  for (uint32_t r : rows) (key.is_null(r) ? nulls : values).push_back(r);
  std::vector<uint32_t> out;
  if (item.nulls_first) {
    if (nulls.size() >= need) return nulls;
    out = non_null_not_after(key, item, values, need - nulls.size());
    out.insert(out.end(), nulls.begin(), nulls.end());
  } else {
    if (values.size() < need) return rows;
    out = non_null_not_after(key, item, values, need);
  }
  std::sort(out.begin(), out.end());
  return out;
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
  if (need == 0) return std::vector<uint32_t>{};
  const Vector key = evaluate(first_order_expr(q), ctx);
  std::vector<uint32_t> out = rows_not_after_kth(key, q.order_by.front(), rows, size_t(need));
  if (out.size() >= n / 2) return std::nullopt;
  return out;
}

}  // namespace raydb::exec
