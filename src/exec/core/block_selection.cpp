#include "exec/core/block_selection.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "exec/core/column_predicate.h"

namespace raydb::exec {

using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

// `e` with every nullable-column read (CASE WHEN flag = 1 THEN NULL ELSE x END) replaced
// by x. Kleene logic is monotone: a predicate TRUE with NULL in some places stays TRUE
// with any value there, so rows passing `e` pass the result too and its ranges bound
// the rows that can pass `e`.
ExprPtr strip_null_reads(const ExprPtr& e) {
  if (e->kind == ExprKind::kCase && e->has_else && e->children.size() == 3 &&
      e->children[1]->kind == ExprKind::kConstant && e->children[1]->value.is_null() &&
      e->children[2]->kind == ExprKind::kColumnRef)
    return e->children[2];
  if (e->children.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (auto& c : copy->children) c = strip_null_reads(c);
  return copy;
}

// Whether `e` compares with a DOUBLE constant. ColumnPredicate maps such a constant
// into a DECIMAL column's domain exactly, the generic evaluator (which filters nullable
// columns) in double arithmetic; they agree below 2^53 but not for every huge value, so
// a stripped (nullable) predicate with one is not used.
bool has_double_constant(const Expr& e) {
  if (e.kind == ExprKind::kConstant) return e.value.type().id == TypeId::kDouble;
  for (auto& c : e.children)
    if (has_double_constant(*c)) return true;
  return false;
}

// A DOUBLE column's predicate as one interval lo <(=) x <(=) hi.
struct DoubleBounds {
  int table = -1, column = -1;
  double lo = -INFINITY, hi = INFINITY;
  bool lo_open = false, hi_open = false;
};

std::optional<double> number(const Expr& k) {
  if (k.kind != ExprKind::kConstant || k.value.is_null()) return std::nullopt;
  switch (k.value.type().id) {
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kHugeint:
    case TypeId::kDecimal:
    case TypeId::kDouble: break;  // compared as doubles, as the evaluator converts them (double_at)
    default: return std::nullopt;
  }
  const double d = k.value.as_double();
  if (std::isnan(d)) return std::nullopt;  // x = NaN holds on NaN rows: no bound
  return d;
}

bool is_double_column(const Expr& c, const plan::LogicalQuery& q) {
  return c.kind == ExprKind::kColumnRef &&
         q.tables[size_t(c.table_index)].table->column(size_t(c.column_index)).type().id == TypeId::kDouble;
}

std::optional<DoubleBounds> double_bounds(const Expr& e, const plan::LogicalQuery& q) {
  DoubleBounds b;
  auto bind = [&](const Expr& c) {
    b.table = c.table_index;
    b.column = c.column_index;
  };
  if (e.kind == ExprKind::kCompare) {
    const Expr *c = e.children[0].get(), *k = e.children[1].get();
    CompareOp op = e.compare_op;
    if (c->kind == ExprKind::kConstant) {
      std::swap(c, k);
      op = op == CompareOp::kLt ? CompareOp::kGt
           : op == CompareOp::kLe ? CompareOp::kGe
           : op == CompareOp::kGt ? CompareOp::kLt
           : op == CompareOp::kGe ? CompareOp::kLe
                                   : op;
    }
    auto v = number(*k);
    if (!is_double_column(*c, q) || !v) return std::nullopt;
    bind(*c);
    switch (op) {
      case CompareOp::kEq: b.lo = b.hi = *v; break;
      case CompareOp::kLt: b.hi = *v, b.hi_open = true; break;
      case CompareOp::kLe: b.hi = *v; break;
      case CompareOp::kGt: b.lo = *v, b.lo_open = true; break;
      case CompareOp::kGe: b.lo = *v; break;
      default: return std::nullopt;
    }
    return b;
  }
  if (e.kind == ExprKind::kBetween && !e.negated) {
    auto lo = number(*e.children[1]), hi = number(*e.children[2]);
    if (!is_double_column(*e.children[0], q) || !lo || !hi) return std::nullopt;
    bind(*e.children[0]);
    b.lo = *lo;
    b.hi = *hi;
    return b;
  }
  if (e.kind == ExprKind::kInList && !e.negated && e.children.size() > 1) {
    if (!is_double_column(*e.children[0], q)) return std::nullopt;
    bind(*e.children[0]);
    b.lo = INFINITY;
    b.hi = -INFINITY;
    for (size_t i = 1; i < e.children.size(); i++) {
      auto v = number(*e.children[i]);
      if (!v) return std::nullopt;
      b.lo = std::min(b.lo, *v);
      b.hi = std::max(b.hi, *v);
    }
    return b;
  }
  return std::nullopt;
}

// The zone map of column `c` of table `t` when its blocks line up with `blocks` of
// `block_rows` rows (every zone map written so far uses ZoneMap::kBlockRows).
const ZoneMap* usable_zone_map(const plan::LogicalQuery& q, size_t t, int c, uint64_t rows) {
  const ZoneMapPtr& z = q.tables[t].table->column(size_t(c)).zone_map();
  return z && z->rows() == rows && z->block_rows() == ZoneMap::kBlockRows ? z.get() : nullptr;
}

// x [NOT] IN a subquery's key set (no NULL in it), x a column of table t.
struct KeySetTerm {
  const plan::KeySet* set = nullptr;
  bool negated = false;
  int column = -1;
};

std::optional<KeySetTerm> key_set_term(const Expr& e, size_t t, const plan::LogicalQuery& q) {
  const bool is_not = e.kind == ExprKind::kNot && e.children[0]->kind == ExprKind::kInKeySet;
  const Expr& k = is_not ? *e.children[0] : e;
  if (k.kind != ExprKind::kInKeySet || !k.key_set || k.key_set->has_null()) return std::nullopt;
  const Expr& x = *k.children[0];
  if (x.kind != ExprKind::kColumnRef || size_t(x.table_index) != t || x.column_index < 0) return std::nullopt;
  if (!k.key_set->comparable_with(q.tables[t].table->column(size_t(x.column_index)).type())) return std::nullopt;
  return KeySetTerm{k.key_set.get(), k.negated != is_not, x.column_index};
}

// Whether block b may hold a value the term passes, from the set's runs: IN, a value in
// a run; NOT IN, a value outside every run (the block's [min, max] not inside one run).
// ColumnPredicate would first turn the runs into its own ranges and test structures:
// 6-14 ms per block of TPC-H Q21 at SF 20 (1.3 M keys over lineitem's order keys).
bool key_set_may_match(const ZoneMap& z, size_t b, const KeySetTerm& term) {
  const auto& runs = term.set->runs();
  const ZoneMap::Block& blk = z.block(b);
  if (blk.min > blk.max) return false;  // only NULLs
  // The first run ending at or above the block's min.
  auto it = std::lower_bound(runs.begin(), runs.end(), blk.min,
                             [](const plan::KeyRun& r, int64_t v) { return r.second < v; });
  if (!term.negated) return it != runs.end() && it->first <= blk.max;  // a run starting by the max
  return !(it != runs.end() && it->first <= blk.min && it->second >= blk.max);
}

// keep[b] = keep[b] && may(b) for every block: in parallel from 64 blocks (4 M rows)
// when each test bisects many runs or ranges (`searched`: TPC-H Q21's key set of a
// million runs over lineitem's 1,831 blocks at SF 20, Q13's NOT LIKE over the comment
// codes); a test against a few ranges costs less than waking the threads (Q6's four
// range conjuncts took 0.35 ms more in parallel).
constexpr size_t kParallelSearch = 4096;  // runs or ranges per block test

template <typename May>
void keep_blocks(std::vector<uint8_t>& keep, size_t searched, const May& may) {
  const long n = long(keep.size());
#pragma omp parallel for schedule(static) if (n >= 64 && searched >= kParallelSearch)
  for (long b = 0; b < n; b++) keep[size_t(b)] = keep[size_t(b)] && may(size_t(b));
}

}  // namespace

uint64_t BlockSelection::rows() const {
  uint64_t n = 0;
  for (auto& r : ranges) n += r.end - r.begin;
  return n;
}

BlockSelection select_blocks(size_t t, const std::vector<ExprPtr>& conjuncts, const plan::LogicalQuery& q) {
  BlockSelection s;
  const uint64_t rows = q.tables[t].table->row_count();
  if (rows == 0) return s;
  const uint64_t nblocks = (rows + ZoneMap::kBlockRows - 1) / ZoneMap::kBlockRows;
  bool any_map = false;  // heap tables (results, temporary tables) have none: no work
  for (const ColumnPtr& c : q.tables[t].table->columns()) any_map = any_map || c->zone_map();
  std::vector<uint8_t> keep;
  for (size_t i = 0; any_map && i < conjuncts.size(); i++) {
    const ExprPtr& conjunct = conjuncts[i];
    if (auto term = key_set_term(*conjunct, t, q)) {
      const ZoneMap* z = usable_zone_map(q, t, term->column, rows);
      if (!z) continue;
      if (keep.empty()) keep.assign(nblocks, 1);
      keep_blocks(keep, term->set->runs().size(), [&](size_t b) { return key_set_may_match(*z, b, *term); });
      continue;
    }
    const ExprPtr e = strip_null_reads(conjunct);
    const bool comparable = e == conjunct || !has_double_constant(*e);
    if (auto p = comparable ? ColumnPredicate::compile(*e, q) : std::nullopt; p && size_t(p->table_index()) == t) {
      const ZoneMap* z = nullptr;
      for (size_t c = 0; c < q.tables[t].table->column_count() && !z; c++)
        if (&q.tables[t].table->column(c) == &p->column()) z = usable_zone_map(q, t, int(c), rows);
      if (!z) continue;
      if (keep.empty()) keep.assign(nblocks, 1);
      keep_blocks(keep, p->ranges().size(), [&](size_t b) { return z->may_match(b, p->ranges()); });
    } else if (auto d = double_bounds(*e, q); d && size_t(d->table) == t) {
      const ZoneMap* z = usable_zone_map(q, t, d->column, rows);
      if (!z) continue;
      if (keep.empty()) keep.assign(nblocks, 1);
      keep_blocks(keep, 1, [&](size_t b) { return z->may_match_double(b, d->lo, d->lo_open, d->hi, d->hi_open); });
    }
  }
  if (keep.empty()) {
    s.ranges.push_back({0, rows});
    return s;
  }
  s.blocks = nblocks;
  for (size_t b = 0; b < nblocks; b++) {
    if (!keep[b]) {
      s.skipped++;
      continue;
    }
    const uint64_t begin = b * ZoneMap::kBlockRows, end = std::min(rows, begin + ZoneMap::kBlockRows);
    if (!s.ranges.empty() && s.ranges.back().end == begin)
      s.ranges.back().end = end;
    else
      s.ranges.push_back({begin, end});
  }
  return s;
}

void restrict_blocks(std::optional<BlockSelection>& s, size_t t, int c, int64_t lo, int64_t hi,
                     const plan::LogicalQuery& q) {
  const uint64_t rows = q.tables[t].table->row_count();
  const ZoneMap* z = rows ? usable_zone_map(q, t, c, rows) : nullptr;
  if (!z) return;
  const std::vector<std::pair<int64_t, int64_t>> range =
      lo <= hi ? std::vector<std::pair<int64_t, int64_t>>{{lo, hi}} : std::vector<std::pair<int64_t, int64_t>>{};
  BlockSelection out;
  out.blocks = z->block_count();
  size_t next = 0;  // the first range of `s` that may still hold block b
  for (size_t b = 0; b < z->block_count(); b++) {
    const uint64_t begin = z->block_begin(b);
    bool kept = true;
    if (s) {
      while (next < s->ranges.size() && s->ranges[next].end <= begin) next++;
      kept = next < s->ranges.size() && s->ranges[next].begin <= begin;
    }
    if (!kept || !z->may_match(b, range)) {
      out.skipped++;
      continue;
    }
    if (!out.ranges.empty() && out.ranges.back().end == begin)
      out.ranges.back().end = z->block_end(b);
    else
      out.ranges.push_back({begin, z->block_end(b)});
  }
  s = std::move(out);
}

BlockSelection coalesce_ranges(const BlockSelection& s, size_t max_ranges) {
  max_ranges = std::max<size_t>(max_ranges, 1);
  if (s.ranges.size() <= max_ranges) return s;
  // Fill the ranges.size() - max_ranges shortest gaps (ties: the earlier gap first).
  const size_t gaps = s.ranges.size() - 1, fill = s.ranges.size() - max_ranges;
  std::vector<size_t> by_size(gaps);
  std::iota(by_size.begin(), by_size.end(), 0);
  auto gap = [&](size_t i) { return s.ranges[i + 1].begin - s.ranges[i].end; };
  std::stable_sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) { return gap(a) < gap(b); });
  std::vector<uint8_t> filled(gaps, 0);
  for (size_t k = 0; k < fill; k++) filled[by_size[k]] = 1;
  BlockSelection out;
  out.blocks = s.blocks;
  for (size_t i = 0; i < s.ranges.size(); i++) {
    if (i > 0 && filled[i - 1])
      out.ranges.back().end = s.ranges[i].end;
    else
      out.ranges.push_back(s.ranges[i]);
  }
  // Ranges start on block boundaries; only the table's last block may be partial.
  uint64_t read = 0;
  for (const RowRange& r : out.ranges) read += (r.end - r.begin + ZoneMap::kBlockRows - 1) / ZoneMap::kBlockRows;
  out.skipped = s.blocks > read ? s.blocks - read : 0;
  return out;
}

}  // namespace raydb::exec
