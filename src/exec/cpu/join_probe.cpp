#include "exec/cpu/join_probe.h"

#include <omp.h>

#include <algorithm>

#include "common/error.h"
#include "exec/core/expression_evaluator.h"
#include "exec/cpu/morsel.h"
#include "exec/cpu/table_filter.h"

namespace raydb::exec::cpu {

using plan::LogicalQuery;

namespace {

// A hashed unique table: the keys that can match, their home slots, then the lookups
// with the slots kPrefetchSlot rows ahead and their groups kPrefetchGroup rows ahead
// prefetched (join_table.h).
template <typename T>
size_t probe_hashed(const T* col, const uint32_t* probe_rows, size_t n, const JoinTable& index, uint32_t* sel,
                    uint32_t* out) {
  constexpr size_t kPrefetchSlot = 16, kPrefetchGroup = 8;
  thread_local std::vector<int64_t> keys;  // per pipeline thread, reused across batches
  thread_local std::vector<uint64_t> slots;
  thread_local std::vector<uint32_t> at;
  keys.resize(n);
  slots.resize(n);
  at.resize(n);
  size_t c = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t k = int64_t(col[probe_rows[i]]);
    keys[c] = k;
    at[c] = uint32_t(i);
    c += index.may_contain(k);
  }
  for (size_t j = 0; j < c; j++) slots[j] = index.home_slot(keys[j]);
  for (size_t j = 0; j < std::min(c, kPrefetchSlot); j++) index.prefetch_slot(slots[j]);
  size_t m = 0;
  for (size_t j = 0; j < c; j++) {
    if (j + kPrefetchSlot < c) index.prefetch_slot(slots[j + kPrefetchSlot]);
    if (j + kPrefetchGroup < c) index.prefetch_group(slots[j + kPrefetchGroup]);
    const uint32_t r = index.find_unique_from(keys[j], slots[j]);
    sel[m] = at[j];
    out[m] = r;
    m += r != JoinTable::kNone;
  }
  return m;
}

template <typename T>
size_t probe_fast(const T* col, const uint32_t* probe_rows, size_t n, const JoinTable& index, uint32_t* sel,
                  uint32_t* out) {
  if (!index.dense()) return probe_hashed(col, probe_rows, n, index, sel, out);
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

// Replaces every bound table's rows by rows src[0..m) of the current ones and binds
// table t to `build` (probe rows repeat where a probe matched several build rows).
void expand_rows(JoinedRows& rows, size_t t, const std::vector<uint32_t>& src, std::vector<uint32_t> build) {
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

// No keys: every current row pairs with every build row.
void probe_cross(const BuiltJoin& j, JoinedRows& rows) {
  const size_t t = size_t(j.table);
  const size_t n = rows.n;
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
}

// One integer key read straight from the probe column into a unique join table.
void probe_fast_column(const BuiltJoin& j, JoinedRows& rows, std::vector<uint32_t>& sel) {
  const size_t t = size_t(j.table);
  const size_t n = rows.n;
  const uint32_t* pr = rows.of[size_t(j.fast_table)].data();
  size_t m = j.fast_column->type().physical_width() == 4
                 ? probe_fast(j.fast_column->data<int32_t>(), pr, n, j.index, sel.data(), rows.of[t].data())
                 : probe_fast(j.fast_column->data<int64_t>(), pr, n, j.index, sel.data(), rows.of[t].data());
  if (m != n) rows.compact(sel.data(), m);
  rows.n = m;
  rows.bound[t] = 1;
}

// Evaluates and encodes `width` probe keys of the current rows.
void encode_probe_keys(const BuiltJoin& j, const LogicalQuery& q, const JoinedRows& rows, size_t width,
                       std::vector<int64_t>& words, std::vector<uint8_t>& valid) {
  const size_t n = rows.n;
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
    encode_join_key(v, *j.codecs[k], false, k, width, words.data(), valid.data());
  }
}

// The index join's matches: each valid probe key is one point lookup into the build
// column's index; src[k] is the probe row of match k, the result the build rows.
std::vector<uint32_t> index_matches(const BuiltJoin& j, size_t n, const std::vector<int64_t>& words,
                                    const std::vector<uint8_t>& valid, std::vector<uint32_t>& src) {
  // Words are stored values of the build column's domain (dictionary codes for
  // VARCHAR); those outside the index's key domain cannot match.
  std::vector<access::KeyRange> lookups;
  std::vector<uint32_t> probe;
  lookups.reserve(n);
  probe.reserve(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t key;
    if (!valid[i] || !j.index_join->encode(words[i], key)) continue;
    lookups.push_back({key, key});
    probe.push_back(uint32_t(i));
  }
  access::RowIdLists lists;
  // This runs inside the pipeline's parallel region: the index's own parallel loop
  // must not start a nested team per batch (with one pipeline thread, OpenMP would
  // start one, and its idle threads spin between batches).
  omp_set_num_threads(1);
  j.index_join->index().materialize(lookups, lists);
  src.resize(lists.rows.size());
  for (size_t l = 0; l < lookups.size(); l++)
    for (uint64_t k = lists.offsets[l]; k < lists.offsets[l + 1]; k++) src[k] = probe[l];
  return std::vector<uint32_t>(lists.rows.begin(), lists.rows.end());
}

// The build table's filters, on the matched rows. ColumnPredicate::filter compacts
// one row array only, so column predicates are tested here row by row and all bound
// tables compacted together.
void filter_index_matches(const BuiltJoin& j, const LogicalQuery& q, JoinedRows& rows, std::vector<uint32_t>& sel) {
  const size_t t = size_t(j.table);
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
  for (const FilterProgram& p : j.build_filter->programs) {
    if (rows.n == 0) break;
    p.mark(rows.of[t].data(), rows.n, keep);
    size_t kept = 0;
    for (size_t i = 0; i < rows.n; i++) {
      sel[kept] = uint32_t(i);
      kept += keep[i];
    }
    if (kept != rows.n) rows.compact(sel.data(), kept);
  }
  apply_generic(j.build_filter->generic, q, rows, keep, sel);
}

// Index-nested-loop join of the current rows: every match becomes a row (probe rows
// repeat for duplicate keys) and must pass the build table's filters.
void probe_index_join(const BuiltJoin& j, const LogicalQuery& q, JoinedRows& rows, std::vector<uint32_t>& sel,
                      std::vector<int64_t>& words, std::vector<uint8_t>& valid) {
  encode_probe_keys(j, q, rows, 1, words, valid);
  std::vector<uint32_t> src;
  std::vector<uint32_t> build = index_matches(j, rows.n, words, valid, src);
  expand_rows(rows, size_t(j.table), src, std::move(build));
  filter_index_matches(j, q, rows, sel);
}

// A unique join table: each probe row keeps its one match or is dropped.
void probe_unique(const BuiltJoin& j, JoinedRows& rows, size_t width, std::vector<uint32_t>& sel,
                  const std::vector<int64_t>& words, const std::vector<uint8_t>& valid) {
  const size_t t = size_t(j.table);
  const size_t n = rows.n;
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
}

// Duplicate build keys: each probe row expands to all its matches.
void probe_duplicates(const BuiltJoin& j, JoinedRows& rows, size_t width, const std::vector<int64_t>& words,
                      const std::vector<uint8_t>& valid, const MemoryBudget& budget) {
  // Count first: one key can match millions of rows, and every probe row of the batch
  // repeats for each. Per match: src and build, then one row id per bound table.
  uint64_t matches = 0;
  for (size_t i = 0; i < rows.n; i++) {
    uint32_t b, e;
    if (!valid[i]) continue;
    j.index.find(&words[i * width], b, e);
    matches += e - b;
  }
  const uint64_t tables = uint64_t(std::count(rows.bound.begin(), rows.bound.end(), 1)) + 1;
  budget.check_scratch(matches * 4 * (2 + tables), "a join's duplicate-key matches");
  std::vector<uint32_t> src, build;
  src.reserve(matches);
  build.reserve(matches);
  for (size_t i = 0; i < rows.n; i++) {
    uint32_t b, e;
    if (!valid[i]) continue;
    j.index.find(&words[i * width], b, e);
    for (uint32_t k = b; k < e; k++) {
      src.push_back(uint32_t(i));
      build.push_back(j.index.rows()[k]);
    }
  }
  expand_rows(rows, size_t(j.table), src, std::move(build));
}

}  // namespace

void probe_join(const BuiltJoin& j, const LogicalQuery& q, JoinedRows& rows, std::vector<uint32_t>& sel,
                std::vector<int64_t>& words, std::vector<uint8_t>& valid, const MemoryBudget& budget) {
  if (j.cross) {
    probe_cross(j, rows);
    return;
  }
  if (sel.size() < rows.n) sel.resize(rows.n);
  rows.ensure(size_t(j.table), rows.n);
  if (j.fast_column) {
    probe_fast_column(j, rows, sel);
  } else if (j.index_join) {
    probe_index_join(j, q, rows, sel, words, valid);
  } else {
    const size_t width = j.step->probe_keys.size();
    encode_probe_keys(j, q, rows, width, words, valid);
    if (j.index.unique())
      probe_unique(j, rows, width, sel, words, valid);
    else
      probe_duplicates(j, rows, width, words, valid, budget);
  }
}

}  // namespace raydb::exec::cpu
