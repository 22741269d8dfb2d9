#include "exec/core/top_groups.h"

#include <algorithm>

#include "exec/core/exact_double_sum.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/order_compare.h"

namespace raydb::exec {

using plan::ExprKind;

namespace {

// The k-th smallest of get(r) over the rows `use` accepts (k of them at least), by a
// bounded max-heap: one pass, no copy of the keys (copies of a million 16-byte keys
// cost more in page faults than the selection).
template <typename T, typename Use, typename Get>
T kth_smallest(const std::vector<uint32_t>& rows, size_t k, Use use, Get get) {
  std::vector<T> heap;
  heap.reserve(k);
  for (uint32_t r : rows) {
    if (!use(r)) continue;
    const T v = get(r);
    if (heap.size() < k) {
      heap.push_back(v);
      std::push_heap(heap.begin(), heap.end());
    } else if (v < heap.front()) {
      std::pop_heap(heap.begin(), heap.end());
      heap.back() = v;
      std::push_heap(heap.begin(), heap.end());
    }
  }
  return heap.front();
}

// Of `rows` (ascending), the NULL ones where `with_nulls`, and the non-NULL ones whose
// key is not above the k-th smallest non-NULL key (k >= 1, at most their number).
template <typename T, typename Get>
std::vector<uint32_t> keep_not_above(const Vector& key, const std::vector<uint32_t>& rows, size_t k, bool with_nulls,
                                     Get get) {
  auto valued = [&](uint32_t r) { return !key.is_null(r); };
  const T kth = kth_smallest<T>(rows, k, valued, get);
  std::vector<uint32_t> out;
  for (uint32_t r : rows)
    if (key.is_null(r) ? with_nulls : !(kth < get(r))) out.push_back(r);
  return out;
}

// Of `rows` (ascending), those not after the need-th under `item` (ties kept), in
// ascending order. NULLs tie with each other and come before or after every value as
// the item says. Keys are compared flat (int64, int128, DOUBLE bits) where they can be:
// the generic comparator per step cost 24 ms over 763 K groups.
std::vector<uint32_t> rows_not_after_kth(const Vector& key, const plan::OrderItem& item,
                                         const std::vector<uint32_t>& rows, size_t need) {
  size_t nulls = 0;
  for (uint32_t r : rows) nulls += key.is_null(r) ? 1 : 0;
  const size_t values = rows.size() - nulls;
  if (item.nulls_first && nulls >= need) {
    std::vector<uint32_t> out;
    for (uint32_t r : rows)
      if (key.is_null(r)) out.push_back(r);
    return out;
  }
  if (!item.nulls_first && values < need) return rows;
  const size_t k = item.nulls_first ? need - nulls : need;  // among the non-NULL keys
  const bool with_nulls = item.nulls_first;
  const bool desc = item.descending;
  switch (key.kind) {
    case VectorKind::kInt:
    case VectorKind::kCode:  // signed order as unsigned: flip the sign bit
      return keep_not_above<uint64_t>(key, rows, k, with_nulls, [&](uint32_t r) {
        const uint64_t u = uint64_t(key.ints[r]) ^ (uint64_t(1) << 63);
        return desc ? ~u : u;
      });
    case VectorKind::kHuge:
      return keep_not_above<unsigned __int128>(key, rows, k, with_nulls, [&](uint32_t r) {
        const unsigned __int128 u = (unsigned __int128)key.huge[r] ^ ((unsigned __int128)1 << 127);
        return desc ? ~u : u;
      });
    case VectorKind::kDouble:
      return keep_not_above<uint64_t>(key, rows, k, with_nulls, [&](uint32_t r) {
        // ORDER BY's DOUBLE order: -0.0 as +0.0, every NaN one key above +inf.
        const uint64_t u = double_order_key(same_value_bits(double_bits(key.doubles[r])));
        return desc ? ~u : u;
      });
    case VectorKind::kString: break;
  }
  // Strings: the generic comparator over the non-NULL rows.
  std::vector<uint32_t> pick;
  for (uint32_t r : rows)
    if (!key.is_null(r)) pick.push_back(r);
  std::nth_element(pick.begin(), pick.begin() + long(k - 1), pick.end(),
                   [&](uint32_t a, uint32_t b) { return compare_order_rows(key, item, a, b) < 0; });
  const uint32_t kth = pick[k - 1];
  std::vector<uint32_t> out;
  for (uint32_t r : rows)
    if (key.is_null(r) ? with_nulls : compare_order_rows(key, item, r, kth) <= 0) out.push_back(r);
  return out;
}

}  // namespace

const plan::Expr& top_groups_order_expr(const plan::LogicalQuery& q) {
  const plan::Expr& e = *q.order_by.front().expr;
  if (e.kind == ExprKind::kOutputRef && e.ref_index >= 0 && size_t(e.ref_index) < q.select.size())
    return *q.select[size_t(e.ref_index)];
  return e;
}

bool prunable_top_groups(const plan::LogicalQuery& q, std::vector<bool>* aggs_read) {
  if (!q.is_aggregate || q.group_keys.empty() || q.order_by.empty() || q.limit < 0 || q.distinct ||
      !q.windows.empty())
    return false;
  std::vector<bool> read(q.aggregates.size(), false);
  if (q.having && !plan::reads_only_aggregates(*q.having, &read)) return false;
  if (!plan::reads_only_aggregates(top_groups_order_expr(q), &read)) return false;
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
  // A bare aggregate is read in place (a copy of a million keys costs page faults).
  const plan::Expr& first = top_groups_order_expr(q);
  std::optional<Vector> computed;
  if (first.kind != ExprKind::kAggregateRef) computed = evaluate(first, ctx);
  const Vector& key = computed ? *computed : aggs[size_t(first.ref_index)];
  std::vector<uint32_t> out = rows_not_after_kth(key, q.order_by.front(), rows, size_t(need));
  if (out.size() >= n / 2) return std::nullopt;
  return out;
}

}  // namespace raydb::exec
