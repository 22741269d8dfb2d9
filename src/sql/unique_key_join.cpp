#include "sql/unique_key_join.h"

#include <algorithm>

#include "sql/column_words.h"

namespace raydb::sql {

namespace {

bool int_stored(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate ||
         t.id == TypeId::kTimestamp || t.id == TypeId::kBoolean || (t.id == TypeId::kDecimal && t.precision <= 18);
}

// Column c of t as stored words, and its NULL flags (empty: none).
void read_ints(const TempTable& t, size_t c, std::vector<int64_t>& values, std::vector<uint8_t>& nulls) {
  const uint64_t n = t.rows();
  read_column_words(t.table->column(c), n, values);
  nulls.clear();
  if (t.nullable(c)) {
    std::vector<int64_t> flags;
    read_column_words(t.table->column(size_t(t.null_flag[c])), n, flags);
    nulls.resize(n);
    for (uint64_t r = 0; r < n; r++) nulls[r] = flags[r] != 0;
  }
}

// Below this many rows a parallel region costs more than it saves.
constexpr uint64_t kParallelRows = uint64_t(1) << 16;

// The indicator column of t's column c, or nullptr when it has none.
const Column* null_flags(const TempTable& t, size_t c) {
  return t.nullable(c) ? &t.table->column(size_t(t.null_flag[c])) : nullptr;
}

// Whether left's column `key` can be matched against right's column 0: both
// integer-stored of one type, and both short of kNoMatch rows.
bool matchable(const TempTable& left, size_t key, const TempTable& right) {
  return right.columns() >= 1 && key < left.columns() && left.type(key) == right.type(0) &&
         int_stored(left.type(key)) && left.rows() < kNoMatch && right.rows() < kNoMatch;
}

// Calls f(keys, nulls) with t's column c and its NULL indicators (nullptr: none) as
// stored words.
template <typename F>
void with_keys(const TempTable& t, size_t c, F&& f) {
  const Column* nulls = null_flags(t, c);
  with_column_words(t.table->column(c), [&](auto* keys) {
    if (!nulls) return f(keys, static_cast<const int32_t*>(nullptr));
    with_column_words(*nulls, [&](auto* flags) { f(keys, flags); });
  });
}

template <typename K, typename N>
uint32_t match_row(const UniqueKeyIndex& index, const K* keys, const N* nulls, uint64_t r) {
  return nulls != nullptr && nulls[r] != 0 ? kNoMatch : index.find(int64_t(keys[r]));
}

std::optional<UniqueKeyIndex> right_index(const TempTable& right) {
  return UniqueKeyIndex::build(right.table->column(0), null_flags(right, 0), right.rows());
}

// src's value at each left row's match, `absent` where none, into a new column of
// src's type, with its min/max found in the same pass.
template <typename K, typename N, typename V>
ColumnPtr gather(const UniqueKeyIndex& index, const K* keys, const N* nulls, uint64_t n, const Column& src,
                 const V* values, int64_t absent) {
  std::shared_ptr<Buffer> buf = Buffer::allocate(n * sizeof(V));  // written once below, not zero-filled
  V* out = static_cast<V*>(buf->mutable_data());
  int64_t lo = INT64_MAX, hi = INT64_MIN;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi) if (n > kParallelRows)
  for (uint64_t r = 0; r < n; r++) {
    const uint32_t m = match_row(index, keys, nulls, r);
    const V v = m == kNoMatch ? V(absent) : values[m];
    out[r] = v;
    lo = std::min<int64_t>(lo, v), hi = std::max<int64_t>(hi, v);
  }
  ColumnStats stats;
  if (n > 0) stats.min = lo, stats.max = hi;
  return std::make_shared<const Column>(src.name(), src.type(), std::move(buf), n, nullptr, stats);
}

// Whether column c of t holds no NULL and lo, lo + 1, ..., lo + rows - 1 in order
// (its first value in lo): row r holds lo + r.
bool dense_ascending(const TempTable& t, size_t c, int64_t& lo) {
  const uint64_t n = t.rows();
  if (n == 0 || t.nullable(c) || !int_stored(t.type(c))) return false;
  return with_column_words(t.table->column(c), [&](auto* v) {
    lo = v[0];
    if (uint64_t(int64_t(v[n - 1])) - uint64_t(lo) != n - 1) return false;  // distinct and ascending: span n
    bool up = true;
#pragma omp parallel for schedule(static) reduction(&& : up) if (n > kParallelRows)
    for (uint64_t r = 1; r < n; r++) up = up && v[r - 1] < v[r];
    return up;
  });
}

// src's value of each right row at its key's row of a dense ascending left key column
// (row r: key lo + r), `absent` at rows no right key names; min/max found on the way.
template <typename K, typename N, typename V>
ColumnPtr scatter(const K* keys, const N* nulls, uint64_t m, int64_t lo, uint64_t n, const Column& src,
                  const V* values, int64_t absent) {
  std::shared_ptr<Buffer> buf = Buffer::allocate(n * sizeof(V));
  V* out = static_cast<V*>(buf->mutable_data());
#pragma omp parallel for schedule(static) if (n > kParallelRows)
  for (uint64_t r = 0; r < n; r++) out[r] = V(absent);  // the first touch, in parallel
  int64_t vlo = INT64_MAX, vhi = INT64_MIN;
  uint64_t landed = 0;
#pragma omp parallel for schedule(static) reduction(min : vlo) reduction(max : vhi) reduction(+ : landed) \
    if (m > kParallelRows)
  for (uint64_t j = 0; j < m; j++) {
    if (nulls != nullptr && nulls[j] != 0) continue;
    const uint64_t at = uint64_t(int64_t(keys[j])) - uint64_t(lo);  // below lo: wraps past n
    if (at >= n) continue;
    out[at] = values[j];
    vlo = std::min<int64_t>(vlo, values[j]), vhi = std::max<int64_t>(vhi, values[j]);
    landed++;
  }
  if (landed < n) vlo = std::min(vlo, absent), vhi = std::max(vhi, absent);
  ColumnStats stats;
  stats.min = vlo, stats.max = vhi;
  return std::make_shared<const Column>(src.name(), src.type(), std::move(buf), n, nullptr, stats);
}

}  // namespace

std::optional<std::vector<ColumnPtr>> scatter_int_columns(const TempTable& left, size_t key, const TempTable& right,
                                                          const std::vector<size_t>& cs, int64_t absent) {
  if (!matchable(left, key, right)) return std::nullopt;
  for (size_t c : cs)
    if (c >= right.columns() || !int_stored(right.type(c)) || right.nullable(c)) return std::nullopt;
  int64_t lo = 0;
  if (!dense_ascending(left, key, lo)) return std::nullopt;
  std::vector<ColumnPtr> out;
  for (size_t c : cs) {
    const Column& src = right.table->column(c);
    with_keys(right, 0, [&](auto* keys, auto* nulls) {
      with_column_words(src, [&](auto* values) {
        out.push_back(scatter(keys, nulls, right.rows(), lo, left.rows(), src, values, absent));
      });
    });
  }
  return out;
}

std::optional<std::vector<uint32_t>> match_unique_keys(const TempTable& left, size_t key, const TempTable& right) {
  if (!matchable(left, key, right)) return std::nullopt;
  const std::optional<UniqueKeyIndex> index = right_index(right);
  if (!index) return std::nullopt;
  std::vector<uint32_t> match(left.rows());
  with_keys(left, key, [&](auto* keys, auto* nulls) {
    const uint64_t n = match.size();
#pragma omp parallel for schedule(static) if (n > kParallelRows)
    for (uint64_t r = 0; r < n; r++) match[r] = match_row(*index, keys, nulls, r);
  });
  return match;
}

std::optional<std::vector<ColumnPtr>> lookup_int_columns(const TempTable& left, size_t key, const TempTable& right,
                                                         const std::vector<size_t>& cs, int64_t absent) {
  if (!matchable(left, key, right)) return std::nullopt;
  for (size_t c : cs)
    if (c >= right.columns() || !int_stored(right.type(c)) || right.nullable(c)) return std::nullopt;
  const std::optional<UniqueKeyIndex> index = right_index(right);
  if (!index) return std::nullopt;
  std::vector<ColumnPtr> out;
  for (size_t c : cs) {
    const Column& src = right.table->column(c);
    with_keys(left, key, [&](auto* keys, auto* nulls) {
      with_column_words(src, [&](auto* values) {
        out.push_back(gather(*index, keys, nulls, left.rows(), src, values, absent));
      });
    });
  }
  return out;
}

void append_matched(TempTableBuilder& b, size_t out, const TempTable& right, size_t c,
                    const std::vector<uint32_t>& match, std::optional<int64_t> absent) {
  const size_t n = match.size();
  const Type t = right.type(c);
  if (int_stored(t)) {
    std::vector<int64_t> values(n);
    std::vector<uint8_t> nulls(n);
    const Column* src_null = null_flags(right, c);
    with_column_words(right.table->column(c), [&](auto* src) {
#pragma omp parallel for schedule(static) if (n > kParallelRows)
      for (size_t r = 0; r < n; r++) {
        const uint32_t m = match[r];
        if (m == kNoMatch && absent) {
          nulls[r] = 0, values[r] = *absent;
          continue;
        }
        nulls[r] = m == kNoMatch || (src_null && src_null->get_int(m) != 0);
        values[r] = nulls[r] ? 0 : int64_t(src[m]);
      }
    });
    if (b.take_ints(out, std::move(values), std::move(nulls), n)) return;
  }
  for (size_t r = 0; r < n; r++)
    b.append(out, match[r] == kNoMatch ? (absent ? Value::bigint(*absent) : Value::null(t)) : right.value(match[r], c));
}

bool distinct_int_column(const TempTable& t, size_t c) {
  if (c >= t.columns() || !int_stored(t.type(c)) || t.rows() >= kNoMatch || t.nullable(c)) return false;
  const Column& col = t.table->column(c);
  const uint64_t n = t.rows();
  // Strictly ascending (a stored key column as loaded, TPC-H's c_custkey): distinct,
  // checked in one parallel pass over the column in place, with no index.
  const bool ascending = with_column_words(col, [&](auto* v) {
    bool up = true;
#pragma omp parallel for schedule(static) reduction(&& : up) if (n > kParallelRows)
    for (uint64_t r = 1; r < n; r++) up = up && v[r - 1] < v[r];
    return up;
  });
  return ascending || UniqueKeyIndex::build(col, nullptr, n).has_value();
}

bool append_int_column(TempTableBuilder& b, size_t out, const TempTable& t, size_t c) {
  if (!int_stored(t.type(c))) return false;
  if (!t.nullable(c) && b.take_column(out, t.table->column_ptr(c))) return true;
  std::vector<int64_t> values;
  std::vector<uint8_t> nulls;
  read_ints(t, c, values, nulls);
  const size_t n = values.size();
  return b.take_ints(out, std::move(values), std::move(nulls), n);
}

std::optional<TempTable> left_join_unique_keys(const TempTable& keys, const TempTable& per_key,
                                               const std::vector<std::string>& names, const std::string& table_name,
                                               const std::string& what) {
  if (keys.columns() < 1 || names.size() != per_key.columns() || keys.nullable(0)) return std::nullopt;
  std::optional<std::vector<uint32_t>> match = match_unique_keys(keys, 0, per_key);
  if (!match) return std::nullopt;
  std::vector<Type> types;
  for (size_t c = 0; c < per_key.columns(); c++) types.push_back(c == 0 ? keys.type(0) : per_key.type(c));
  TempTableBuilder b(table_name, names, types, what);
  b.reserve(match->size());
  if (!append_int_column(b, 0, keys, 0)) return std::nullopt;
  for (size_t c = 1; c < per_key.columns(); c++) append_matched(b, c, per_key, c, *match);
  return b.finish();
}

}  // namespace raydb::sql
