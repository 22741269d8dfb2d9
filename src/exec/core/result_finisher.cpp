#include "exec/core/result_finisher.h"

#include <algorithm>
#include <numeric>

#include "exec/core/expression_evaluator.h"
#include "exec/core/group_table.h"
#include "exec/core/key_encoder.h"
#include "exec/core/order_words.h"

namespace raydb::exec {

using plan::ExprKind;
using plan::LogicalQuery;

namespace {

std::vector<Vector> select_rows(const std::vector<Vector>& cols, const std::vector<uint32_t>& idx) {
  std::vector<Vector> out;
  for (auto& c : cols) out.push_back(c.select(idx.data(), idx.size()));
  return out;
}

// How often e reads each group key and aggregate.
void count_reads(const plan::Expr& e, std::vector<int>& keys, std::vector<int>& aggs) {
  if (e.kind == ExprKind::kGroupRef && e.ref_index >= 0 && size_t(e.ref_index) < keys.size()) keys[size_t(e.ref_index)]++;
  if (e.kind == ExprKind::kAggregateRef && e.ref_index >= 0 && size_t(e.ref_index) < aggs.size())
    aggs[size_t(e.ref_index)]++;
  for (auto& c : e.children) count_reads(*c, keys, aggs);
}

}  // namespace

std::vector<Vector> finish_aggregation(const LogicalQuery& q, std::vector<Vector> key_vectors,
                                       std::vector<Vector> agg_vectors, size_t& n) {
  std::vector<Vector> outputs;
  EvalContext ctx;
  ctx.query = &q;
  ctx.group_keys = &key_vectors;
  ctx.aggregates = &agg_vectors;
  ctx.n = n;
  if (q.having && n > 0) {
    std::vector<uint8_t> keep;
    evaluate_predicate(*q.having, ctx, keep);
    std::vector<uint32_t> idx;
    for (size_t i = 0; i < n; i++)
      if (keep[i]) idx.push_back(uint32_t(i));
    key_vectors = select_rows(key_vectors, idx);
    agg_vectors = select_rows(agg_vectors, idx);
    n = idx.size();
    ctx.n = n;
  }
  // A SELECT item that is a bare group key or aggregate read nowhere else takes its
  // vector instead of a copy (millions of groups: a copy per column cost more than the
  // rest of the finish).
  std::vector<int> key_reads(key_vectors.size(), 0), agg_reads(agg_vectors.size(), 0);
  for (auto& e : q.select) count_reads(*e, key_reads, agg_reads);
  for (auto& o : q.order_by) count_reads(*o.expr, key_reads, agg_reads);
  for (auto& e : q.select) {
    std::vector<Vector>* src = e->kind == ExprKind::kGroupRef       ? &key_vectors
                               : e->kind == ExprKind::kAggregateRef ? &agg_vectors
                                                                    : nullptr;
    const std::vector<int>& reads = e->kind == ExprKind::kGroupRef ? key_reads : agg_reads;
    const size_t at = size_t(e->ref_index);
    if (src && e->ref_index >= 0 && at < src->size() && reads[at] == 1 && (*src)[at].size == n)
      outputs.push_back(std::move((*src)[at]));
    else
      outputs.push_back(evaluate(*e, ctx));
  }
  // ORDER BY keys in the post-aggregation domain (may read outputs).
  if (!q.order_by.empty()) {
    ctx.outputs = &outputs;
    std::vector<Vector> extra;
    for (auto& o : q.order_by) extra.push_back(evaluate(*o.expr, ctx));
    for (auto& v : extra) outputs.push_back(std::move(v));
  }
  return outputs;
}

void finish_rows(const LogicalQuery& q, std::vector<Vector> outputs, size_t n, ResultTable& result,
                 MemoryBudget* budget) {
  // DISTINCT over the SELECT columns (first occurrence wins).
  const size_t nsel = q.select.size();
  if (q.distinct && n > 0) {
    std::vector<KeySpec> specs;
    for (size_t c = 0; c < nsel; c++) {
      KeySpec s;
      s.type = outputs[c].type;
      s.kind = outputs[c].kind;
      s.dict = outputs[c].dict;
      s.nullable = true;
      specs.push_back(s);
    }
    KeyEncoder enc(specs, result.interner.get());
    // Key words, the table's slots and the kept rows' positions, per row.
    if (budget) budget->charge(uint64_t(n) * (size_t(enc.width()) * 8 + 16 + 4), "DISTINCT rows");
    std::vector<Vector> sel_cols(outputs.begin(), outputs.begin() + long(nsel));
    std::vector<int64_t> words;
    enc.encode(sel_cols, n, words);
    GroupTable seen(enc.width(), false, 0);
    std::vector<uint32_t> idx;
    size_t before = 0;
    for (size_t i = 0; i < n; i++) {
      seen.find_or_insert_one(&words[i * size_t(enc.width())]);
      if (seen.group_count() > before) {
        idx.push_back(uint32_t(i));
        before = seen.group_count();
      }
    }
    outputs = select_rows(outputs, idx);
    n = idx.size();
  }

  // No ORDER BY, OFFSET or LIMIT: the rows as they are (no permutation of a million
  // rows to build and check).
  if (q.order_by.empty() && q.limit < 0 && q.offset == 0) {
    outputs.resize(nsel);
    result.columns = std::move(outputs);
    result.rows = n;
    for (auto& c : result.columns) c.size = n;
    return;
  }
  // ORDER BY, OFFSET, LIMIT.
  std::vector<uint32_t> idx;
  if (!q.order_by.empty()) {
    std::vector<Vector> keys(outputs.begin() + long(nsel), outputs.end());
    // The permutation, the kept rows' copy of it (4 bytes a row each) and the key
    // words (order_words.h).
    if (budget) budget->charge(uint64_t(n) * (8 + 8 * order_width(keys)), "the ORDER BY's sort");
    int64_t need = q.limit >= 0 ? q.limit + q.offset : -1;
    idx = ordered_rows(keys, q.order_by, n, need);
  } else {
    idx.resize(n);
    std::iota(idx.begin(), idx.end(), 0);
  }
  size_t from = std::min<size_t>(size_t(q.offset), idx.size());
  size_t to = q.limit >= 0 ? std::min(idx.size(), from + size_t(q.limit)) : idx.size();
  std::vector<uint32_t> final_idx(idx.begin() + long(from), idx.begin() + long(to));
  outputs.resize(nsel);
  const bool identity = final_idx.size() == n && std::is_sorted(final_idx.begin(), final_idx.end());
  result.columns = identity ? std::move(outputs) : select_rows(outputs, final_idx);
  result.rows = final_idx.size();
  for (auto& c : result.columns) c.size = result.rows;
}

}  // namespace raydb::exec
