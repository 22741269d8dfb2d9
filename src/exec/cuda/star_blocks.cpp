#include "exec/cuda/star_blocks.h"

#include <algorithm>
#include <limits>

#include "common/error.h"
#include "storage/packed_layout.h"
#include "storage/zone_map.h"

namespace raydb::exec::cuda {

namespace {

static_assert(ZoneMap::kBlockRows % uint64_t(kStarTileRows) == 0,
              "zone-map blocks hold whole fact-kernel tiles");

// `v` in one of `ranges` (inclusive, sorted, disjoint: ColumnPredicate::ranges).
bool in_ranges(const std::vector<std::pair<int64_t, int64_t>>& ranges, int64_t v) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), v,
                             [](int64_t x, const std::pair<int64_t, int64_t>& r) { return x < r.first; });
  return it != ranges.begin() && v <= std::prev(it)->second;
}

// The root's column index of fact column `c`, or -1.
int root_column_index(const plan::LogicalQuery& q, int root, const ColumnPtr& c) {
  const Table& t = *q.tables[size_t(root)].table;
  for (size_t i = 0; i < t.column_count(); i++)
    if (t.column_ptr(i) == c) return int(i);
  return -1;
}


// Whether some block of `z` spans less than half of the column's [min, max]: only
// then can a key range skip many blocks, and the dimension's host pass pay off (an
// unsorted foreign key's blocks each span nearly everything).
bool clustered(const ZoneMap& z) {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (size_t b = 0; b < z.block_count(); b++)
    if (z.block(b).min <= z.block(b).max) lo = std::min(lo, z.block(b).min), hi = std::max(hi, z.block(b).max);
  if (lo >= hi) return false;
  const unsigned __int128 half = ((unsigned __int128)(__int128(hi) - __int128(lo))) / 2;
  for (size_t b = 0; b < z.block_count(); b++) {
    const ZoneMap::Block& k = z.block(b);
    if (k.min <= k.max && (unsigned __int128)(__int128(k.max) - __int128(k.min)) < half) return true;
  }
  return false;
}

}  // namespace

std::optional<std::pair<int64_t, int64_t>> passing_key_range(const StarDim& d, uint64_t row_limit) {
  const Column& key = *d.key;
  if (d.filters.empty() || key.size() > row_limit) return std::nullopt;
  for (const StarFilter& f : d.filters)
    if (f.column->type().id == TypeId::kDouble || f.column->size() != key.size()) return std::nullopt;
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (uint64_t row = 0; row < key.size(); row++) {
    bool pass = true;
    for (size_t f = 0; f < d.filters.size() && pass; f++)
      pass = in_ranges(d.filters[f].ranges, d.filters[f].column->get_int(row));
    if (!pass) continue;
    const int64_t k = key.get_int(row);
    lo = std::min(lo, k);
    hi = std::max(hi, k);
  }
  return std::make_pair(lo, hi);
}

std::optional<BlockSelection> fact_blocks(const StarPlan& sp, const plan::LogicalQuery& q) {
  const size_t root = size_t(sp.root);
  std::optional<BlockSelection> s;
  if (BlockSelection b = select_blocks(root, sp.fact_conjuncts, q); b.blocks > 0) s = std::move(b);
  // A dimension's passing keys bound the foreign key (an inner join): fact blocks
  // outside them find no match. Same types only, not DOUBLE or VARCHAR (codes of two
  // dictionaries differ), as the CPU's join_build.cpp.
  for (const StarDim& d : sp.dims) {
    const ColumnPtr& fk = sp.fact_columns[size_t(d.fact_col)];
    if (!(fk->type() == d.key->type()) || fk->type().id == TypeId::kDouble || fk->type().id == TypeId::kVarchar ||
        !fk->zone_map() || !clustered(*fk->zone_map()))
      continue;
    const int c = root_column_index(q, sp.root, fk);
    if (c < 0) continue;
    if (auto keys = passing_key_range(d, kHostKeyRangeRows)) restrict_blocks(s, root, c, keys->first, keys->second, q);
  }
  if (!s || s->skipped == 0) return std::nullopt;
  return coalesce_ranges(*s, kMaxFactLaunches);
}

PackedCols packed_for_rows(const PackedCols& p, RowRange r) {
  PackedCols s = p;
  for (int c = 0; c < kMaxFactColumns; c++)
    if (s.words[c]) s.words[c] += packed_miniblock_word(r.begin, s.bits[c]);
  return s;
}

StarParams params_for_rows(const StarParams& p, RowRange r) {
  if (r.begin % uint64_t(kStarTileRows) != 0 || r.end < r.begin || r.end > p.rows)
    fail(ErrorKind::kInternal, "fact rows [{}, {}) do not start on a kernel tile inside {} rows", r.begin, r.end, p.rows);
  StarParams s = p;
  s.rows = r.end - r.begin;
  for (int c = 0; c < s.ncols; c++)
    s.cols[c].data = static_cast<const char*>(p.cols[c].data) + r.begin * uint64_t(p.cols[c].width);
  // Per-row arrays: the order-statistics outputs by row, the filter passes' bits by
  // 16-row chunk (bit r % 16 of chunk r / 16).
  if (s.os_select) s.os_select += r.begin;
  if (s.os_gids) s.os_gids += r.begin;
  if (s.filter_bits) s.filter_bits += r.begin / 16;
  return s;
}

}  // namespace raydb::exec::cuda
