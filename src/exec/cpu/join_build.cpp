#include "exec/cpu/join_build.h"

#include <algorithm>
#include <limits>

#include "common/error.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/join_order.h"
#include "exec/cpu/morsel.h"
#include "exec/index/index_access.h"

namespace raydb::exec::cpu {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::LogicalQuery;

namespace {

bool is_integer_column(const Expr& e) {
  if (e.kind != ExprKind::kColumnRef) return false;
  auto id = e.type.id;
  return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDate || id == TypeId::kDecimal ||
         id == TypeId::kTimestamp;
}

std::unique_ptr<JoinKeyCodec> make_codec(const Expr& build_key, const LogicalQuery& q, size_t t) {
  auto c = std::make_unique<JoinKeyCodec>();
  c->build_kind = join_key_kind(build_key);
  if (c->build_kind == VectorKind::kCode)
    c->build_dict = q.tables[t].table->column(size_t(build_key.column_index)).dictionary();
  if (c->build_kind == VectorKind::kString) c->build_strings = std::make_shared<std::unordered_map<std::string, int64_t>>();
  return c;
}

// Nothing to build: probes look their keys up in the index. Run after the hash joins
// that are ready (they shrink the probe rows at no lookup cost).
void plan_index_join(BuiltJoin& j, const plan::JoinStep& step, const TableFilter& filter, const LogicalQuery& q) {
  j.index_join = dynamic_cast<const BuiltIndex*>(step.index_join->index.get());
  if (!j.index_join) fail(ErrorKind::kInternal, "index join without a built index");
  j.build_filter = &filter;
  j.codecs.push_back(make_codec(*step.build_keys[0], q, size_t(step.build_table)));
  j.selectivity = 1.5;
}

// Evaluates the build keys of `rows` batch by batch (serially: string interning is
// order-dependent) into words, `width` per row; valid[i] = 0 for a NULL key.
void encode_build_keys(const BuiltJoin& j, const plan::JoinStep& step, const LogicalQuery& q,
                       const std::vector<uint32_t>& rows, std::vector<int64_t>& words, std::vector<uint8_t>& valid) {
  const size_t t = size_t(step.build_table);
  const size_t width = step.build_keys.size();
  words.assign(rows.size() * width, 0);
  valid.assign(rows.size(), 1);
  for (size_t begin = 0; begin < rows.size(); begin += kBatch) {
    size_t n = std::min(kBatch, rows.size() - begin);
    BatchRows view;
    view.n = n;
    view.rows.assign(q.tables.size(), nullptr);
    view.rows[t] = rows.data() + begin;
    EvalContext ctx;
    ctx.query = &q;
    ctx.batch = &view;
    ctx.n = n;
    for (size_t k = 0; k < width; k++) {
      Vector v = evaluate(*step.build_keys[k], ctx);
      encode_join_key(v, *j.codecs[k], true, k, width, words.data() + begin * width, valid.data() + begin);
    }
  }
}

// Drops build rows whose key is NULL: they never match.
void drop_invalid_keys(std::vector<uint32_t>& rows, std::vector<int64_t>& words, const std::vector<uint8_t>& valid,
                       size_t width) {
  size_t m = 0;
  for (size_t i = 0; i < rows.size(); i++) {
    if (!valid[i]) continue;
    rows[m] = rows[i];
    if (m != i) std::copy(&words[i * width], &words[i * width] + width, &words[m * width]);
    m++;
  }
  rows.resize(m);
  words.resize(m * width);
}

// The join table of the filtered build rows, its selectivity and the fast path.
void build_join_table(BuiltJoin& j, const plan::JoinStep& step, const LogicalQuery& q, std::vector<uint32_t> rows) {
  const size_t t = size_t(step.build_table);
  const size_t width = step.build_keys.size();
  for (auto& k : step.build_keys) j.codecs.push_back(make_codec(*k, q, t));
  std::vector<int64_t> words;
  std::vector<uint8_t> valid;
  encode_build_keys(j, step, q, rows, words, valid);
  drop_invalid_keys(rows, words, valid, width);
  j.index.build(std::move(words), int(width), std::move(rows));
  // Fraction of probe rows expected to match: for a unique key, the fraction of the
  // build table that survived its filters (foreign keys spread uniformly).
  const double total = double(std::max<uint64_t>(1, q.tables[t].table->row_count()));
  j.selectivity = j.index.unique() ? double(j.index.build_rows()) / total
                                   : 1.0 + double(j.index.build_rows()) / double(std::max<uint64_t>(1, j.index.distinct_keys()));
  if (width == 1 && j.index.unique() && is_integer_column(*step.probe_keys[0]) &&
      j.codecs[0]->build_kind == VectorKind::kInt) {
    // Scales must agree for raw stored values to be comparable (planner guarantees
    // equal decimal scales; INTEGER/BIGINT/DATE have none).
    const Expr& pk = *step.probe_keys[0];
    j.fast_table = pk.table_index;
    j.fast_column = &q.tables[size_t(pk.table_index)].table->column(size_t(pk.column_index));
  }
}

// Sets j's key range (join_build.h) when the step joins one probe column to one build
// column of the same type (integer-physical, not VARCHAR: codes of two dictionaries
// differ). A NULL build key's slot holds a placeholder inside the column's range, which
// only widens the range.
void note_key_range(BuiltJoin& j, const plan::JoinStep& step, const LogicalQuery& q, const std::vector<uint32_t>& rows) {
  if (step.build_keys.size() != 1) return;
  const Expr& pk = *step.probe_keys[0];
  const Expr& bk = *step.build_keys[0];
  if (pk.kind != ExprKind::kColumnRef || bk.kind != ExprKind::kColumnRef) return;
  const Column& pc = q.tables[size_t(pk.table_index)].table->column(size_t(pk.column_index));
  const Column& bc = q.tables[size_t(bk.table_index)].table->column(size_t(bk.column_index));
  if (!(pc.type() == bc.type()) || bc.type().id == TypeId::kDouble || bc.type().id == TypeId::kVarchar ||
      !pc.zone_map())
    return;
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  if (bc.type().physical_width() == 4) {
    const int32_t* v = bc.data<int32_t>();
    for (uint32_t r : rows) lo = std::min<int64_t>(lo, v[r]), hi = std::max<int64_t>(hi, v[r]);
  } else {
    const int64_t* v = bc.data<int64_t>();
    for (uint32_t r : rows) lo = std::min(lo, v[r]), hi = std::max(hi, v[r]);
  }
  j.has_key_range = true;
  j.key_min = rows.empty() ? 1 : lo;
  j.key_max = rows.empty() ? 0 : hi;
  j.probe_table = pk.table_index;
  j.probe_column = pk.column_index;
}

// Keeps the build rows that find a match in each join of `semi` (steps probed only
// from this step's table, built already): the others would be dropped there anyway,
// since every join step is an inner join. Orders whose customer fails the customer
// filter leave the orders table before it is built and probed.
void keep_rows_matching(std::vector<uint32_t>& rows, const std::vector<SemiReducer>& semi, size_t t,
                        const LogicalQuery& q) {
  std::vector<int64_t> words;
  std::vector<uint8_t> valid, keep(rows.size(), 1);
  for (const SemiReducer& reducer : semi) {
    const BuiltJoin* d = reducer.join;
    const size_t width = reducer.keys.size();
    for (size_t begin = 0; begin < rows.size(); begin += kBatch) {
      const size_t n = std::min(kBatch, rows.size() - begin);
      BatchRows view;
      view.n = n;
      view.rows.assign(q.tables.size(), nullptr);
      view.rows[t] = rows.data() + begin;
      EvalContext ctx;
      ctx.query = &q;
      ctx.batch = &view;
      ctx.n = n;
      words.assign(n * width, 0);
      valid.assign(n, 1);
      for (size_t k = 0; k < width; k++) {
        const JoinKeyCodec& codec = *d->codecs[reducer.column >= 0 ? size_t(reducer.column) : k];
        Vector v = evaluate(*reducer.keys[k], ctx);
        if (codec.build_kind == VectorKind::kInt && v.kind == VectorKind::kHuge) return;  // probe's error
        encode_join_key(v, codec, false, k, width, words.data(), valid.data());
      }
      if (reducer.column >= 0) {  // one column of d's keys: its distinct build words
        for (size_t i = 0; i < n; i++)
          if (!valid[i] || !std::binary_search(reducer.values.begin(), reducer.values.end(), words[i]))
            keep[begin + i] = 0;
        continue;
      }
      for (size_t i = 0; i < n; i++) {
        uint32_t b = 0, e = 0;
        if (valid[i]) d->index.find(&words[i * width], b, e);
        if (b == e) keep[begin + i] = 0;
      }
    }
  }
  size_t m = 0;
  for (size_t i = 0; i < rows.size(); i++)
    if (keep[i]) rows[m++] = rows[i];
  rows.resize(m);
}

}  // namespace

bool reduces_build(const BuiltJoin& d, const LogicalQuery& q) {
  return !d.index_join && !d.cross && !d.step->build_keys.empty() &&
         d.index.build_rows() < q.tables[size_t(d.table)].table->row_count();
}

std::vector<SemiReducer> key_equivalent_reducers(const std::vector<plan::JoinStep>& steps, size_t i,
                                                 const std::vector<const BuiltJoin*>& built, const LogicalQuery& q) {
  std::vector<SemiReducer> out;
  const plan::JoinStep& s = steps[i];
  if (s.index_join || s.build_keys.empty()) return out;
  for (size_t k = 0; k < steps.size(); k++) {
    const BuiltJoin* d = built[k];
    if (k == i || !d || d->step->probe_keys.size() != 1 || !reduces_build(*d, q)) continue;
    const Expr& shared = *d->step->probe_keys[0];
    for (size_t m = 0; m < s.probe_keys.size(); m++)
      // Same expression probes both, so this build key equals d's probe key in every
      // joined row; the same type makes it encode as d's probe key does.
      if (plan::same_expr(*s.probe_keys[m], shared) && s.build_keys[m]->type == shared.type) {
        out.push_back({d, {s.build_keys[m].get()}});
        break;
      }
  }
  return out;
}

namespace {
// Probe key m of `d` when it reads only `table` and d has two or more keys; else -1.
int column_of_table(const plan::JoinStep& d, int table) {
  if (d.index_join || d.probe_keys.size() < 2 || d.build_keys.size() != d.probe_keys.size()) return -1;
  for (size_t m = 0; m < d.probe_keys.size(); m++)
    if (plan::tables_used(*d.probe_keys[m]) == (uint64_t(1) << table)) return int(m);
  return -1;
}
}  // namespace

std::vector<SemiReducer> column_reducers(const std::vector<plan::JoinStep>& steps, size_t i,
                                         const std::vector<const BuiltJoin*>& built, const LogicalQuery& q) {
  std::vector<SemiReducer> out;
  const plan::JoinStep& s = steps[i];
  if (s.index_join || s.build_keys.empty() || s.build_table < 0 || s.build_table >= 64) return out;
  for (size_t k = 0; k < steps.size(); k++) {
    const BuiltJoin* d = built[k];
    if (k == i || !d || d->cross || !reduces_build(*d, q)) continue;
    const int m = column_of_table(steps[k], s.build_table);
    if (m < 0) continue;
    std::optional<std::vector<int64_t>> values = d->index.column_keys(m);
    if (!values) continue;
    SemiReducer r{d, {steps[k].probe_keys[size_t(m)].get()}};
    r.column = m;
    r.values = std::move(*values);
    out.push_back(std::move(r));
  }
  return out;
}

bool column_reducer_pending(const std::vector<plan::JoinStep>& steps, size_t i,
                            const std::vector<const BuiltJoin*>& built) {
  const plan::JoinStep& s = steps[i];
  if (s.index_join || s.build_keys.empty() || s.build_table < 0 || s.build_table >= 64) return false;
  for (size_t k = 0; k < steps.size(); k++)
    if (k != i && !built[k] && column_of_table(steps[k], s.build_table) >= 0) return true;
  return false;
}

BuiltJoin build_join(const plan::JoinStep& step, const TableFilter& filter, const plan::IndexScan* index_scan,
                     const LogicalQuery& q, int threads, const std::vector<SemiReducer>& semi) {
  BuiltJoin j;
  j.step = &step;
  j.table = step.build_table;
  j.depends_on = step.depends_on;
  j.residuals = step.residuals;
  const size_t t = size_t(step.build_table);
  if (step.index_join) {
    plan_index_join(j, step, filter, q);
    return j;
  }
  std::vector<uint32_t> rows;
  if (index_scan) {
    const std::vector<uint32_t> candidates = index_scan_rows(*index_scan, q);
    rows = scan_table(t, filter, q, threads, &candidates);
  } else {
    rows = scan_table(t, filter, q, threads);
  }
  if (!semi.empty()) keep_rows_matching(rows, semi, t, q);
  j.build_rows = rows.size();
  if (step.build_keys.empty()) {
    j.cross = true;
    j.cross_rows = std::move(rows);
    j.selectivity = 2.0 + double(j.cross_rows.size());  // expands: run last
    return j;
  }
  note_key_range(j, step, q, rows);
  build_join_table(j, step, q, std::move(rows));
  return j;
}

std::vector<BuiltJoin*> order_joins(std::vector<BuiltJoin>& joins, int root) {
  std::vector<JoinOrderStep> steps;
  for (auto& j : joins) steps.push_back({j.table, j.depends_on, j.selectivity});
  const std::vector<size_t> idx = order_join_steps(steps, root);
  std::vector<BuiltJoin*> order;
  for (size_t i : idx) order.push_back(&joins[i]);
  std::vector<ExprPtr> residuals;
  for (auto* j : order) {
    residuals.insert(residuals.end(), j->residuals.begin(), j->residuals.end());
    j->residuals.clear();
  }
  for (auto& r : residuals) {
    const size_t k = residual_step(plan::tables_used(*r), steps, idx, root);
    if (k < order.size()) order[k]->residuals.push_back(r);
  }
  return order;
}

}  // namespace raydb::exec::cpu
