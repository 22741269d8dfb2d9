#include "exec/cpu/table_filter.h"

#include <algorithm>
#include <numeric>

#include "exec/core/expression_evaluator.h"
#include "exec/cpu/morsel.h"

namespace raydb::exec::cpu {

using plan::ExprPtr;
using plan::LogicalQuery;

TableFilter compile_filter(const std::vector<ExprPtr>& conjuncts, const LogicalQuery& q) {
  TableFilter f;
  for (auto& c : conjuncts) {
    auto p = ColumnPredicate::compile(*c, q);
    if (p) {
      if (p->always_false()) f.always_false = true;
      f.columns.push_back(std::move(*p));
    } else if (auto prog = FilterProgram::compile(*c, q)) {
      f.programs.push_back(std::move(*prog));
    } else {
      f.generic.push_back(c);
    }
  }
  std::stable_sort(f.columns.begin(), f.columns.end(),
                   [](const ColumnPredicate& a, const ColumnPredicate& b) { return a.coverage() < b.coverage(); });
  return f;
}

void apply_generic(const std::vector<ExprPtr>& preds, const LogicalQuery& q, JoinedRows& rows,
                   std::vector<uint8_t>& keep, std::vector<uint32_t>& sel) {
  for (auto& p : preds) {
    if (rows.n == 0) return;
    BatchRows view = rows.view();
    EvalContext ctx;
    ctx.query = &q;
    ctx.batch = &view;
    ctx.n = rows.n;
    evaluate_predicate(*p, ctx, keep);
    if (sel.size() < rows.n) sel.resize(rows.n);
    size_t m = 0;
    for (size_t i = 0; i < rows.n; i++) {
      sel[m] = uint32_t(i);
      m += keep[i];
    }
    if (m != rows.n) rows.compact(sel.data(), m);
  }
}

namespace {

// Filters the rows of one table (rows.of[t] holds candidates, rows.n of them).
void apply_filter(const TableFilter& f, size_t t, const LogicalQuery& q, JoinedRows& rows, std::vector<uint8_t>& keep,
                  std::vector<uint32_t>& sel, size_t first_column_pred) {
  for (size_t i = first_column_pred; i < f.columns.size() && rows.n > 0; i++)
    rows.n = f.columns[i].filter(rows.of[t].data(), rows.n);
  for (size_t i = 0; i < f.programs.size() && rows.n > 0; i++) rows.n = f.programs[i].filter(rows.of[t].data(), rows.n);
  apply_generic(f.generic, q, rows, keep, sel);
}

}  // namespace

void scan_batch(const TableFilter& f, size_t t, const LogicalQuery& q, const std::vector<uint32_t>* candidates,
                uint32_t begin, size_t len, JoinedRows& rows, std::vector<uint8_t>& keep, std::vector<uint32_t>& sel) {
  if (candidates) {
    std::copy(candidates->begin() + begin, candidates->begin() + begin + long(len), rows.of[t].begin());
    rows.n = len;
    apply_filter(f, t, q, rows, keep, sel, 0);
  } else if (!f.columns.empty()) {
    rows.n = f.columns[0].filter_range(begin, len, rows.of[t].data());
    apply_filter(f, t, q, rows, keep, sel, 1);
  } else {
    std::iota(rows.of[t].begin(), rows.of[t].begin() + long(len), begin);
    rows.n = len;
    apply_filter(f, t, q, rows, keep, sel, 1);
  }
}

std::vector<uint32_t> scanned_batches(const TableFilter& f, uint64_t total) {
  std::vector<uint32_t> out;
  if (!f.blocks) {
    out.resize(size_t((total + kBatch - 1) / kBatch));
    std::iota(out.begin(), out.end(), 0u);
    return out;
  }
  static_assert(ZoneMap::kBlockRows % kBatch == 0, "zone-map blocks hold whole batches");
  for (const RowRange& r : f.blocks->ranges)
    for (uint64_t b = r.begin / kBatch; b * kBatch < std::min(r.end, total); b++) out.push_back(uint32_t(b));
  return out;
}

std::vector<uint32_t> scan_table(size_t t, const TableFilter& f, const LogicalQuery& q, int threads,
                                 const std::vector<uint32_t>* candidates) {
  const uint64_t total = candidates ? candidates->size() : q.tables[t].table->row_count();
  if (f.always_false || total == 0) return {};
  // Index candidates are row ids, not rows: the block ranges apply to a full scan only.
  static const TableFilter kEveryBlock;
  const std::vector<uint32_t> ids = scanned_batches(candidates ? kEveryBlock : f, total);
  const size_t batches = ids.size();
  const size_t units = (batches + kMorselBatches - 1) / kMorselBatches;
  std::vector<std::vector<uint32_t>> parts(units);
  parallel_for(units, threads, [&](size_t u) {
    JoinedRows rows;
    rows.of.resize(q.tables.size());
    rows.bound.assign(q.tables.size(), 0);
    rows.bound[t] = 1;
    rows.ensure(t, kBatch);
    std::vector<uint8_t> keep;
    std::vector<uint32_t> sel;
    for (size_t b = u * kMorselBatches; b < std::min(batches, (u + 1) * kMorselBatches); b++) {
      uint32_t begin = uint32_t(ids[b] * kBatch);
      size_t len = size_t(std::min<uint64_t>(kBatch, total - begin));
      scan_batch(f, t, q, candidates, begin, len, rows, keep, sel);
      parts[u].insert(parts[u].end(), rows.of[t].begin(), rows.of[t].begin() + long(rows.n));
    }
  });
  std::vector<uint32_t> out;
  size_t sum = 0;
  for (auto& p : parts) sum += p.size();
  out.reserve(sum);
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace raydb::exec::cpu
