#include "exec/cpu/cpu_executor.h"

#include "exec/core/constant_conjuncts.h"
#include "exec/core/join_order.h"
#include "exec/core/exact_double_sum.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <unordered_set>

#include "common/error.h"
#include "common/timer.h"
#include "exec/core/aggregate_states.h"
#include "exec/core/column_predicate.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/group_table.h"
#include "exec/cpu/join_table.h"
#include "exec/index/index_access.h"
#include "exec/core/result_finisher.h"

namespace raydb::exec {

using plan::AggFunc;
using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::LogicalQuery;

namespace {

constexpr size_t kBatch = 2048;            // rows per vector batch (fits L1/L2 with a few columns)
constexpr size_t kMorselBatches = 8;       // batches per work unit handed to a thread
constexpr uint64_t kDirectGroupLimit = uint64_t(1) << 18;  // packed key range for direct aggregation

// Runs `body(i)` for i in [0, n) on `threads` threads; rethrows the first exception.
template <typename F>
void parallel_for(size_t n, int threads, F&& body) {
  std::exception_ptr error;
  std::mutex error_mutex;
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (size_t i = 0; i < n; i++) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      body(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  }
  if (error) std::rethrow_exception(error);
}

// Filters of one table: compiled column predicates first (narrowest first), then
// generic predicates.
struct TableFilter {
  std::vector<ColumnPredicate> columns;
  std::vector<ExprPtr> generic;
  bool always_false = false;
};

TableFilter compile_filter(const std::vector<ExprPtr>& conjuncts, const LogicalQuery& q) {
  TableFilter f;
  for (auto& c : conjuncts) {
    auto p = ColumnPredicate::compile(*c, q);
    if (p) {
      if (p->always_false()) f.always_false = true;
      f.columns.push_back(std::move(*p));
    } else {
      f.generic.push_back(c);
    }
  }
  std::stable_sort(f.columns.begin(), f.columns.end(),
                   [](const ColumnPredicate& a, const ColumnPredicate& b) { return a.coverage() < b.coverage(); });
  return f;
}

// The rows of the current batch, one array per table; `n` rows are valid.
struct Rows {
  std::vector<std::vector<uint32_t>> of;  // indexed by table
  std::vector<uint8_t> bound;
  size_t n = 0;

  void ensure(size_t t, size_t cap) {
    if (of[t].size() < cap) of[t].resize(std::max(cap, kBatch));
  }
  // Keeps rows sel[0..m) (ascending) of every bound table.
  void compact(const uint32_t* sel, size_t m) {
    for (size_t t = 0; t < of.size(); t++) {
      if (!bound[t]) continue;
      uint32_t* r = of[t].data();
      for (size_t k = 0; k < m; k++) r[k] = r[sel[k]];
    }
    n = m;
  }
  BatchRows view() const {
    BatchRows b;
    b.n = n;
    b.rows.resize(of.size(), nullptr);
    for (size_t t = 0; t < of.size(); t++)
      if (bound[t]) b.rows[t] = of[t].data();
    return b;
  }
};

// Applies generic predicates to the current rows.
void apply_generic(const std::vector<ExprPtr>& preds, const LogicalQuery& q, Rows& rows, std::vector<uint8_t>& keep,
                   std::vector<uint32_t>& sel) {
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

// Filters the rows of one table (rows.of[t] holds candidates, rows.n of them).
void apply_filter(const TableFilter& f, size_t t, const LogicalQuery& q, Rows& rows, std::vector<uint8_t>& keep,
                  std::vector<uint32_t>& sel, size_t first_column_pred) {
  for (size_t i = first_column_pred; i < f.columns.size() && rows.n > 0; i++)
    rows.n = f.columns[i].filter(rows.of[t].data(), rows.n);
  apply_generic(f.generic, q, rows, keep, sel);
}

// Fills rows.of[t] with one batch of table t, rows [begin, begin+len) of the scan
// (or of `candidates`, row ids from an index), and applies the table's filters. The
// first column predicate, when there is one, produces the batch straight from the
// dense range.
void scan_batch(const TableFilter& f, size_t t, const LogicalQuery& q, const std::vector<uint32_t>* candidates,
                uint32_t begin, size_t len, Rows& rows, std::vector<uint8_t>& keep, std::vector<uint32_t>& sel) {
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

// Key encoding of one join column pair, so probe values become build-side words.
struct JoinKeyCodec {
  VectorKind build_kind = VectorKind::kInt;
  const Dictionary* build_dict = nullptr;  // VARCHAR build keys read from a column
  // VARCHAR build keys from expressions: string -> id.
  std::shared_ptr<std::unordered_map<std::string, int64_t>> build_strings;
  // Cached translation from a probe dictionary to build codes (-1: absent).
  mutable std::mutex cache_mutex;
  mutable const Dictionary* cached_probe_dict = nullptr;
  mutable std::shared_ptr<std::vector<int64_t>> cached_map;

  std::shared_ptr<std::vector<int64_t>> map_for(const Dictionary* probe) const {
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (cached_probe_dict == probe && cached_map) return cached_map;
    auto m = std::make_shared<std::vector<int64_t>>(probe->size(), -1);
    // Both dictionaries are sorted: merge them.
    uint32_t j = 0;
    for (uint32_t i = 0; i < probe->size(); i++) {
      std::string_view s = probe->at(i);
      while (j < build_dict->size() && build_dict->at(j) < s) j++;
      if (j < build_dict->size() && build_dict->at(j) == s) (*m)[i] = j;
    }
    cached_probe_dict = probe;
    cached_map = m;
    return m;
  }
};

// Encodes one key vector into words (stride `width`, column `k`); valid[i] = 0 when
// the value is NULL or cannot match any build key.
void encode_join_key(const Vector& v, const JoinKeyCodec& codec, bool build_side, size_t k, size_t width,
                     int64_t* words, uint8_t* valid, StringInterner& interner) {
  const size_t n = v.size;
  for (size_t i = 0; i < n; i++)
    if (v.is_null(i)) valid[i] = 0;
  switch (codec.build_kind) {
    case VectorKind::kInt:
      for (size_t i = 0; i < n; i++) words[i * width + k] = v.ints[i];
      return;
    case VectorKind::kDouble:
      for (size_t i = 0; i < n; i++) words[i * width + k] = int64_t(same_value_bits(double_bits(v.doubles[i])));
      return;
    case VectorKind::kCode: {
      if (build_side || (v.kind == VectorKind::kCode && v.dict == codec.build_dict)) {
        for (size_t i = 0; i < n; i++) words[i * width + k] = v.ints[i];
        return;
      }
      if (v.kind == VectorKind::kCode) {
        auto m = codec.map_for(v.dict);
        for (size_t i = 0; i < n; i++) {
          int64_t c = (*m)[size_t(v.ints[i])];
          words[i * width + k] = c;
          if (c < 0) valid[i] = 0;
        }
        return;
      }
      for (size_t i = 0; i < n; i++) {
        auto c = codec.build_dict->find(v.strings[i]);
        words[i * width + k] = c ? int64_t(*c) : -1;
        if (!c) valid[i] = 0;
      }
      return;
    }
    case VectorKind::kString:
    case VectorKind::kHuge: {
      // Strings from expressions on the build side: intern build values, look up probes.
      (void)interner;
      auto& map = *codec.build_strings;
      for (size_t i = 0; i < n; i++) {
        if (v.is_null(i)) continue;
        std::string s(v.string_at(i));
        if (build_side) {
          auto it = map.try_emplace(s, int64_t(map.size())).first;
          words[i * width + k] = it->second;
        } else {
          auto it = map.find(s);
          if (it == map.end()) {
            valid[i] = 0;
          } else {
            words[i * width + k] = it->second;
          }
        }
      }
      return;
    }
  }
}

struct BuiltJoin {
  const plan::JoinStep* step = nullptr;
  int table = -1;
  JoinTable index;
  std::vector<std::unique_ptr<JoinKeyCodec>> codecs;
  std::vector<ExprPtr> residuals;
  double selectivity = 1;
  uint64_t depends_on = 0;
  bool cross = false;  // no keys: every probe row matches every build row
  std::vector<uint32_t> cross_rows;
  // Fast path: one integer key read straight from a probe column into a unique index.
  const Column* fast_column = nullptr;
  int fast_table = -1;
  // Index-nested-loop join: probe keys are looked up in this index of the build
  // table's key column (no join table is built); matches pass build_filter.
  const BuiltIndex* index_join = nullptr;
  const TableFilter* build_filter = nullptr;
};

// Filtered row ids of a whole table, in ascending order. With `candidates` (an
// index scan's rows, ascending) only those rows are read and filtered.
std::vector<uint32_t> scan_table(size_t t, const TableFilter& f, const LogicalQuery& q, int threads,
                                 const std::vector<uint32_t>* candidates = nullptr) {
  const uint64_t total = candidates ? candidates->size() : q.tables[t].table->row_count();
  if (f.always_false || total == 0) return {};
  const size_t batches = size_t((total + kBatch - 1) / kBatch);
  const size_t units = (batches + kMorselBatches - 1) / kMorselBatches;
  std::vector<std::vector<uint32_t>> parts(units);
  parallel_for(units, threads, [&](size_t u) {
    Rows rows;
    rows.of.resize(q.tables.size());
    rows.bound.assign(q.tables.size(), 0);
    rows.bound[t] = 1;
    rows.ensure(t, kBatch);
    std::vector<uint8_t> keep;
    std::vector<uint32_t> sel;
    for (size_t b = u * kMorselBatches; b < std::min(batches, (u + 1) * kMorselBatches); b++) {
      uint32_t begin = uint32_t(b * kBatch);
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

bool is_integer_column(const Expr& e) {
  if (e.kind != ExprKind::kColumnRef) return false;
  auto id = e.type.id;
  return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDate || id == TypeId::kDecimal;
}

VectorKind join_key_kind(const Expr& build_key) {
  switch (build_key.type.id) {
    case TypeId::kVarchar: return build_key.kind == ExprKind::kColumnRef ? VectorKind::kCode : VectorKind::kString;
    case TypeId::kDouble: return VectorKind::kDouble;
    default: return VectorKind::kInt;
  }
}

BuiltJoin build_join(const plan::JoinStep& step, const TableFilter& filter, const plan::IndexScan* index_scan,
                     const LogicalQuery& q, int threads, StringInterner& interner) {
  BuiltJoin j;
  j.step = &step;
  j.table = step.build_table;
  j.depends_on = step.depends_on;
  j.residuals = step.residuals;
  const size_t t = size_t(step.build_table);
  if (step.index_join) {
    // Nothing to build: probes look their keys up in the index. Run after the hash
    // joins that are ready (they shrink the probe rows at no lookup cost).
    j.index_join = dynamic_cast<const BuiltIndex*>(step.index_join->index.get());
    if (!j.index_join) fail(ErrorKind::kInternal, "index join without a built index");
    j.build_filter = &filter;
    auto c = std::make_unique<JoinKeyCodec>();
    c->build_kind = join_key_kind(*step.build_keys[0]);
    if (c->build_kind == VectorKind::kCode)
      c->build_dict = q.tables[t].table->column(size_t(step.build_keys[0]->column_index)).dictionary();
    j.codecs.push_back(std::move(c));
    j.selectivity = 1.5;
    return j;
  }
  std::vector<uint32_t> rows;
  if (index_scan) {
    const std::vector<uint32_t> candidates = index_scan_rows(*index_scan, q);
    rows = scan_table(t, filter, q, threads, &candidates);
  } else {
    rows = scan_table(t, filter, q, threads);
  }
  const double total = double(std::max<uint64_t>(1, q.tables[t].table->row_count()));
  if (step.build_keys.empty()) {
    j.cross = true;
    j.cross_rows = std::move(rows);
    j.selectivity = 2.0 + double(j.cross_rows.size());  // expands: run last
    return j;
  }
  const size_t width = step.build_keys.size();
  for (auto& k : step.build_keys) {
    auto c = std::make_unique<JoinKeyCodec>();
    c->build_kind = join_key_kind(*k);
    if (c->build_kind == VectorKind::kCode)
      c->build_dict = q.tables[t].table->column(size_t(k->column_index)).dictionary();
    if (c->build_kind == VectorKind::kString) c->build_strings = std::make_shared<std::unordered_map<std::string, int64_t>>();
    j.codecs.push_back(std::move(c));
  }
  // Evaluate build keys batch by batch (serially: string interning is order-dependent).
  std::vector<int64_t> words(rows.size() * width);
  std::vector<uint8_t> valid(rows.size(), 1);
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
      encode_join_key(v, *j.codecs[k], true, k, width, words.data() + begin * width, valid.data() + begin, interner);
    }
  }
  // Drop build rows whose key is NULL: they never match.
  size_t m = 0;
  for (size_t i = 0; i < rows.size(); i++) {
    if (!valid[i]) continue;
    rows[m] = rows[i];
    if (m != i) std::copy(&words[i * width], &words[i * width] + width, &words[m * width]);
    m++;
  }
  rows.resize(m);
  words.resize(m * width);
  j.index.build(std::move(words), int(width), std::move(rows));
  // Fraction of probe rows expected to match: for a unique key, the fraction of the
  // build table that survived its filters (foreign keys spread uniformly).
  j.selectivity = j.index.unique() ? double(j.index.build_rows()) / total
                                   : 1.0 + double(j.index.build_rows()) / double(std::max<uint64_t>(1, j.index.distinct_keys()));
  if (width == 1 && j.index.unique() && is_integer_column(*step.probe_keys[0]) &&
      j.codecs[0]->build_kind == VectorKind::kInt) {
    const Expr& pk = *step.probe_keys[0];
    j.fast_table = pk.table_index;
    j.fast_column = &q.tables[size_t(pk.table_index)].table->column(size_t(pk.column_index));
    // Scales must agree for raw stored values to be comparable (planner guarantees
    // equal decimal scales; INTEGER/BIGINT/DATE have none).
  }
  return j;
}

// Orders built joins (exec/core/join_order.h, shared with the other backends) and
// re-places each residual at the first step where all its tables are bound.
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

template <typename T>
size_t probe_fast(const T* col, const uint32_t* probe_rows, size_t n, const JoinTable& index, uint32_t* sel,
                  uint32_t* out) {
  size_t m = 0;
  if (index.has_presence_bits()) {
    // Selective dimension: most probes stop at one bit; keep the branch (it predicts).
    for (size_t i = 0; i < n; i++) {
      uint32_t r = index.find_unique_filtered(int64_t(col[probe_rows[i]]));
      if (r != JoinTable::kNone) {
        sel[m] = uint32_t(i);
        out[m++] = r;
      }
    }
    return m;
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t r = index.find_unique(int64_t(col[probe_rows[i]]));
    sel[m] = uint32_t(i);
    out[m] = r;
    m += r != JoinTable::kNone;
  }
  return m;
}

// Index-nested-loop join of the current rows: each valid probe key is one point
// lookup into the build column's index; every match becomes a row (probe rows repeat
// for duplicate keys) and must pass the build table's filters.
void probe_index_join(const BuiltJoin& j, const LogicalQuery& q, Rows& rows, StringInterner& interner,
                      std::vector<uint32_t>& sel, std::vector<int64_t>& words, std::vector<uint8_t>& valid) {
  const size_t t = size_t(j.table);
  const size_t n = rows.n;
  BatchRows view = rows.view();
  EvalContext ctx;
  ctx.query = &q;
  ctx.batch = &view;
  ctx.n = n;
  words.assign(n, 0);
  valid.assign(n, 1);
  Vector v = evaluate(*j.step->probe_keys[0], ctx);
  if (j.codecs[0]->build_kind == VectorKind::kInt && v.kind == VectorKind::kHuge)
    fail(ErrorKind::kNotImplemented, "join on a 128-bit key expression {}", j.step->probe_keys[0]->to_string());
  encode_join_key(v, *j.codecs[0], false, 0, 1, words.data(), valid.data(), interner);
  // Words are stored values of the build column's domain (dictionary codes for
  // VARCHAR); those outside the index's key domain cannot match.
  std::vector<access::KeyRange> lookups;
  std::vector<uint32_t> src;
  lookups.reserve(n);
  src.reserve(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t key;
    if (!valid[i] || !j.index_join->encode(words[i], key)) continue;
    lookups.push_back({key, key});
    src.push_back(uint32_t(i));
  }
  access::RowIdLists lists;
  // This runs inside the pipeline's parallel region: the index's own parallel loop
  // must not start a nested team per batch (with one pipeline thread, OpenMP would
  // start one, and its idle threads spin between batches).
  omp_set_num_threads(1);
  j.index_join->index().materialize(lookups, lists);
  const size_t m = lists.rows.size();
  for (size_t u = 0; u < rows.of.size(); u++) {
    if (!rows.bound[u]) continue;
    std::vector<uint32_t> next(std::max(m, kBatch));
    for (size_t l = 0; l < lookups.size(); l++)
      for (uint64_t k = lists.offsets[l]; k < lists.offsets[l + 1]; k++) next[k] = rows.of[u][src[l]];
    rows.of[u] = std::move(next);
  }
  std::vector<uint32_t> build(lists.rows.begin(), lists.rows.end());
  build.resize(std::max(m, kBatch));
  rows.of[t] = std::move(build);
  rows.bound[t] = 1;
  rows.n = m;
  // The build table's filters, on the matched rows. ColumnPredicate::filter compacts
  // one row array only, so column predicates are tested here row by row and all
  // bound tables compacted together.
  if (sel.size() < rows.n) sel.resize(rows.n);
  for (const ColumnPredicate& p : j.build_filter->columns) {
    const Column& c = p.column();
    const uint32_t* r = rows.of[t].data();
    size_t kept = 0;
    if (c.type().physical_width() == 4) {
      const int32_t* d = c.data<int32_t>();
      for (size_t i = 0; i < rows.n; i++) {
        sel[kept] = uint32_t(i);
        kept += p.test(d[r[i]]);
      }
    } else {
      const int64_t* d = c.data<int64_t>();
      for (size_t i = 0; i < rows.n; i++) {
        sel[kept] = uint32_t(i);
        kept += p.test(d[r[i]]);
      }
    }
    if (kept != rows.n) rows.compact(sel.data(), kept);
  }
  std::vector<uint8_t> keep;
  apply_generic(j.build_filter->generic, q, rows, keep, sel);
}

// Probes one join for the current rows; afterwards rows.of[j.table] is bound.
void probe_join(const BuiltJoin& j, const LogicalQuery& q, Rows& rows, StringInterner& interner,
                std::vector<uint32_t>& sel, std::vector<int64_t>& words, std::vector<uint8_t>& valid) {
  const size_t t = size_t(j.table);
  const size_t n = rows.n;
  if (j.cross) {
    const size_t b = j.cross_rows.size();
    size_t total = n * b;
    std::vector<std::vector<uint32_t>> next(rows.of.size());
    for (size_t u = 0; u < rows.of.size(); u++) {
      if (!rows.bound[u]) continue;
      next[u].resize(std::max(total, kBatch));
      for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < b; k++) next[u][i * b + k] = rows.of[u][i];
    }
    next[t].resize(std::max(total, kBatch));
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < b; k++) next[t][i * b + k] = j.cross_rows[k];
    rows.bound[t] = 1;
    for (size_t u = 0; u < rows.of.size(); u++)
      if (rows.bound[u]) rows.of[u] = std::move(next[u]);
    rows.n = total;
    return;
  }
  if (sel.size() < n) sel.resize(n);
  rows.ensure(t, n);
  if (j.fast_column) {
    const uint32_t* pr = rows.of[size_t(j.fast_table)].data();
    size_t m = j.fast_column->type().physical_width() == 4
                   ? probe_fast(j.fast_column->data<int32_t>(), pr, n, j.index, sel.data(), rows.of[t].data())
                   : probe_fast(j.fast_column->data<int64_t>(), pr, n, j.index, sel.data(), rows.of[t].data());
    if (m != n) rows.compact(sel.data(), m);
    rows.n = m;
    rows.bound[t] = 1;
    return;
  }
  if (j.index_join) {
    probe_index_join(j, q, rows, interner, sel, words, valid);
    return;
  }
  // General keys.
  const size_t width = j.step->probe_keys.size();
  BatchRows view = rows.view();
  EvalContext ctx;
  ctx.query = &q;
  ctx.batch = &view;
  ctx.n = n;
  words.assign(n * width, 0);
  valid.assign(n, 1);
  for (size_t k = 0; k < width; k++) {
    Vector v = evaluate(*j.step->probe_keys[k], ctx);
    if (j.codecs[k]->build_kind == VectorKind::kInt && v.kind == VectorKind::kHuge)
      fail(ErrorKind::kNotImplemented, "join on a 128-bit key expression {}", j.step->probe_keys[k]->to_string());
    encode_join_key(v, *j.codecs[k], false, k, width, words.data(), valid.data(), interner);
  }
  if (j.index.unique()) {
    size_t m = 0;
    uint32_t* out = rows.of[t].data();
    for (size_t i = 0; i < n; i++) {
      uint32_t b, e;
      if (!valid[i]) continue;
      j.index.find(&words[i * width], b, e);
      if (b == e) continue;
      sel[m] = uint32_t(i);
      out[m] = j.index.rows()[b];
      m++;
    }
    if (m != n) rows.compact(sel.data(), m);
    rows.n = m;
    rows.bound[t] = 1;
    return;
  }
  // Duplicate build keys: each probe row expands to all its matches.
  std::vector<uint32_t> src, build;
  for (size_t i = 0; i < n; i++) {
    uint32_t b, e;
    if (!valid[i]) continue;
    j.index.find(&words[i * width], b, e);
    for (uint32_t k = b; k < e; k++) {
      src.push_back(uint32_t(i));
      build.push_back(j.index.rows()[k]);
    }
  }
  const size_t m = src.size();
  for (size_t u = 0; u < rows.of.size(); u++) {
    if (!rows.bound[u]) continue;
    std::vector<uint32_t> next(std::max(m, kBatch));
    for (size_t k = 0; k < m; k++) next[k] = rows.of[u][src[k]];
    rows.of[u] = std::move(next);
  }
  build.resize(std::max(m, kBatch));
  rows.of[t] = std::move(build);
  rows.bound[t] = 1;
  rows.n = m;
}

// Per-thread pipeline state.
struct Worker {
  Rows rows;
  std::vector<uint8_t> keep, valid;
  std::vector<uint32_t> sel, gids;
  std::vector<int64_t> words;
  std::unique_ptr<GroupTable> groups;
  std::unique_ptr<AggregateStates> states;
  std::vector<std::pair<size_t, std::vector<Vector>>> chunks;  // (batch, projected columns)
};

}  // namespace

ResultTable CpuExecutor::execute(const plan::PhysicalPlan& plan, const ExecOptions& options) {
  const LogicalQuery& q = *plan.query;
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  ResultTable result;
  result.interner = std::make_shared<StringInterner>();
  StringInterner& interner = *result.interner;
  result.names = q.output_names;
  Timer timer;
  const size_t nt = q.tables.size();

  // Constant conjuncts decide once whether anything can pass.
  const bool empty = !constant_conjuncts_pass(plan);

  // Filters per table, then build sides.
  std::vector<TableFilter> filters;
  for (size_t t = 0; t < nt; t++) filters.push_back(compile_filter(plan.table_filters[t], q));
  std::vector<BuiltJoin> joins;
  if (!empty)
    for (auto& step : plan.joins) {
      const size_t bt = size_t(step.build_table);
      const plan::IndexScan* iscan = bt < plan.index_scans.size() && plan.index_scans[bt] ? &*plan.index_scans[bt] : nullptr;
      joins.push_back(build_join(step, filters[bt], iscan, q, threads, interner));
    }
  std::vector<BuiltJoin*> order = order_joins(joins, plan.root_table);
  double build_ms = timer.elapsed_ms();

  // Aggregation layout.
  std::optional<KeyEncoder> encoder;
  bool direct = false;
  if (q.is_aggregate && !q.group_keys.empty()) {
    std::vector<KeySpec> specs;
    for (auto& g : q.group_keys) specs.push_back(group_key_spec(*g, q));
    encoder.emplace(std::move(specs), &interner);
    direct = encoder->packed() && encoder->packed_range() <= kDirectGroupLimit;
  }
  auto new_groups = [&]() {
    return std::make_unique<GroupTable>(encoder ? encoder->width() : 1, direct, direct ? encoder->packed_range() : 0);
  };
  // ORDER BY items evaluated per row in a non-aggregate query (not referring to outputs).
  std::vector<size_t> hidden_order;
  if (!q.is_aggregate)
    for (size_t i = 0; i < q.order_by.size(); i++)
      if (q.order_by[i].expr->kind != ExprKind::kOutputRef) hidden_order.push_back(i);

  // Pipeline over the probe root.
  const size_t root = size_t(plan.root_table);
  const bool no_tables = nt == 0;
  const uint64_t total = no_tables ? 1 : q.tables[root].table->row_count();
  if (total >= JoinTable::kNone) fail(ErrorKind::kNotImplemented, "tables of 2^32 rows or more are not supported yet");
  // An index scan of the root: the pipeline streams its candidate rows instead of
  // the whole table (and applies every root filter to them as to scanned rows).
  std::optional<std::vector<uint32_t>> root_candidates;
  if (!empty && !no_tables && root < plan.index_scans.size() && plan.index_scans[root])
    root_candidates = index_scan_rows(*plan.index_scans[root], q);
  const uint64_t stream = root_candidates ? root_candidates->size() : total;
  const size_t batches = empty || filters.empty() || !filters[root].always_false ? size_t((stream + kBatch - 1) / kBatch) : 0;
  const size_t run_batches = empty ? 0 : batches;
  const size_t units = (run_batches + kMorselBatches - 1) / kMorselBatches;
  std::vector<Worker> workers(static_cast<size_t>(threads));
  parallel_for(units, threads, [&](size_t u) {
    Worker& w = workers[size_t(omp_get_thread_num())];
    if (w.rows.of.empty()) {
      w.rows.of.resize(std::max<size_t>(nt, 1));
      w.rows.bound.assign(std::max<size_t>(nt, 1), 0);
      if (q.is_aggregate) {
        w.groups = new_groups();
        w.states = std::make_unique<AggregateStates>(&q.aggregates, &interner);
        if (!encoder) w.states->resize(1);
        if (direct) w.states->resize(w.groups->state_size());
      }
    }
    Rows& rows = w.rows;
    for (size_t b = u * kMorselBatches; b < std::min(run_batches, (u + 1) * kMorselBatches); b++) {
      std::fill(rows.bound.begin(), rows.bound.end(), 0);
      if (!no_tables) {
        rows.bound[root] = 1;
        rows.ensure(root, kBatch);
        uint32_t begin = uint32_t(b * kBatch);
        size_t len = size_t(std::min<uint64_t>(kBatch, stream - begin));
        const TableFilter& f = filters[root];
        scan_batch(f, root, q, root_candidates ? &*root_candidates : nullptr, begin, len, rows, w.keep, w.sel);
        for (auto* j : order) {
          if (rows.n == 0) break;
          probe_join(*j, q, rows, interner, w.sel, w.words, w.valid);
          apply_generic(j->residuals, q, rows, w.keep, w.sel);
        }
      } else {
        rows.n = 1;
      }
      if (rows.n == 0) continue;
      BatchRows view = rows.view();
      EvalContext ctx;
      ctx.query = &q;
      ctx.batch = &view;
      ctx.n = rows.n;
      if (q.is_aggregate) {
        const uint32_t* gids = nullptr;
        if (encoder) {
          std::vector<Vector> keys;
          for (auto& g : q.group_keys) keys.push_back(evaluate(*g, ctx));
          w.words.clear();
          encoder->encode(keys, rows.n, w.words);
          w.gids.resize(rows.n);
          w.groups->find_or_insert(w.words.data(), rows.n, w.gids.data());
          if (!direct) w.states->resize(w.groups->state_size());
          gids = w.gids.data();
        }
        for (size_t a = 0; a < q.aggregates.size(); a++) {
          if (q.aggregates[a].func == AggFunc::kCountStar) {
            w.states->update(a, gids, rows.n, nullptr);
          } else {
            Vector arg = evaluate(*q.aggregates[a].arg, ctx);
            w.states->update(a, gids, rows.n, &arg);
          }
        }
      } else {
        std::vector<Vector> cols;
        for (auto& e : q.select) cols.push_back(evaluate(*e, ctx));
        for (size_t i : hidden_order) cols.push_back(evaluate(*q.order_by[i].expr, ctx));
        w.chunks.emplace_back(b, std::move(cols));
      }
    }
  });
  double probe_ms = timer.elapsed_ms() - build_ms;

  // Assemble the rows before SELECT: aggregate groups, or projected chunks.
  std::vector<Vector> outputs;
  size_t n = 0;
  if (q.is_aggregate) {
    std::vector<Vector> key_vectors, agg_vectors;
    if (!encoder) {
      // One group, present even when no row arrived (COUNT 0, other aggregates NULL).
      AggregateStates total_states(&q.aggregates, &interner);
      total_states.resize(1);
      uint32_t zero = 0;
      for (auto& w : workers)
        if (w.states) total_states.merge(*w.states, &zero, &zero, 1);
      std::vector<uint32_t> g{0};
      for (size_t a = 0; a < q.aggregates.size(); a++) agg_vectors.push_back(total_states.finalize(a, g));
      n = 1;
    } else {
      GroupTable global(encoder->width(), direct, direct ? encoder->packed_range() : 0);
      AggregateStates global_states(&q.aggregates, &interner);
      if (direct) global_states.resize(global.state_size());
      std::vector<int64_t> key(size_t(encoder->width()));
      for (auto& w : workers) {
        if (!w.groups) continue;
        std::vector<uint32_t> src = w.groups->groups();
        std::vector<uint32_t> dst(src.size());
        for (size_t i = 0; i < src.size(); i++) {
          w.groups->key_words(src[i], key.data());
          dst[i] = global.find_or_insert_one(key.data());
        }
        if (!direct) global_states.resize(global.state_size());
        global_states.merge(*w.states, src.data(), dst.data(), src.size());
      }
      std::vector<uint32_t> gids = global.groups();
      n = gids.size();
      std::vector<int64_t> words(n * size_t(encoder->width()));
      for (size_t i = 0; i < n; i++) global.key_words(gids[i], &words[i * size_t(encoder->width())]);
      key_vectors = encoder->decode(words.data(), n);
      for (size_t a = 0; a < q.aggregates.size(); a++) agg_vectors.push_back(global_states.finalize(a, gids));
    }
    outputs = finish_aggregation(q, std::move(key_vectors), std::move(agg_vectors), n);
  } else {
    std::vector<std::pair<size_t, std::vector<Vector>>*> chunks;
    for (auto& w : workers)
      for (auto& c : w.chunks) chunks.push_back(&c);
    std::sort(chunks.begin(), chunks.end(), [](auto* a, auto* b) { return a->first < b->first; });
    const size_t ncols = q.select.size() + hidden_order.size();
    outputs.resize(ncols);
    for (size_t c = 0; c < ncols; c++) {
      const Expr& e = c < q.select.size() ? *q.select[c] : *q.order_by[hidden_order[c - q.select.size()]].expr;
      outputs[c].type = e.type;
      outputs[c].kind = kind_of(e.type);
    }
    for (auto* ch : chunks) {
      for (size_t c = 0; c < ncols; c++) outputs[c].append(ch->second[c]);
      n += ch->second.empty() ? 0 : ch->second[0].size;
    }
    for (auto& o : outputs) o.size = n;
    // Order keys: hidden columns, or output references.
    if (!q.order_by.empty()) {
      std::vector<Vector> keys;
      size_t h = 0;
      for (auto& o : q.order_by) {
        if (o.expr->kind == ExprKind::kOutputRef)
          keys.push_back(outputs[size_t(o.expr->ref_index)]);
        else
          keys.push_back(outputs[q.select.size() + h++]);
      }
      outputs.resize(q.select.size());
      for (auto& k : keys) outputs.push_back(std::move(k));
    }
  }

  finish_rows(q, std::move(outputs), n, result);
  result.profile = fmt::format("build {:.2f} ms, probe {:.2f} ms, finish {:.2f} ms, {} threads", build_ms, probe_ms,
                               timer.elapsed_ms() - build_ms - probe_ms, threads);
  return result;
}

}  // namespace raydb::exec
