#include "sql/unique_key_join.h"

#include <algorithm>
#include <bit>

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

// The row of each key: a direct array over [lo, lo + span) when the span is small,
// else open addressing (load at most 1/2).
class KeyIndex {
 public:
  KeyIndex(int64_t lo, uint64_t span, size_t n) : lo_(lo) {
    direct_ = span <= 4 * uint64_t(n) + 1024;
    const size_t slots = direct_ ? size_t(span) : std::bit_ceil(std::max<size_t>(2 * n, 16));
    mask_ = slots - 1;
    rows_.assign(slots, kNoMatch);
    if (!direct_) keys_.resize(slots);
  }
  // False when the key is there already.
  bool insert(int64_t k, uint32_t row) {
    if (direct_) {
      uint32_t& r = rows_[size_t(uint64_t(k) - uint64_t(lo_))];
      if (r != kNoMatch) return false;
      r = row;
      return true;
    }
    for (size_t s = slot(k);; s = (s + 1) & mask_) {
      if (rows_[s] == kNoMatch) {
        rows_[s] = row, keys_[s] = k;
        return true;
      }
      if (keys_[s] == k) return false;
    }
  }
  uint32_t find(int64_t k) const {
    if (direct_) {
      const uint64_t at = uint64_t(k) - uint64_t(lo_);
      return k < lo_ || at >= rows_.size() ? kNoMatch : rows_[size_t(at)];
    }
    for (size_t s = slot(k);; s = (s + 1) & mask_)
      if (rows_[s] == kNoMatch || keys_[s] == k) return rows_[s];
  }

 private:
  size_t slot(int64_t k) const { return size_t((uint64_t(k) * 0x9E3779B97F4A7C15ull) >> 17) & mask_; }
  int64_t lo_;
  bool direct_ = false;
  size_t mask_ = 0;
  std::vector<uint32_t> rows_;
  std::vector<int64_t> keys_;
};

}  // namespace

std::optional<std::vector<uint32_t>> match_unique_keys(const TempTable& left, size_t key, const TempTable& right) {
  if (right.columns() < 1 || key >= left.columns()) return std::nullopt;
  if (!(left.type(key) == right.type(0)) || !int_stored(left.type(key))) return std::nullopt;
  if (left.rows() >= kNoMatch || right.rows() >= kNoMatch) return std::nullopt;
  std::vector<int64_t> rk, lk;
  std::vector<uint8_t> rk_null, lk_null;
  read_ints(right, 0, rk, rk_null);
  read_ints(left, key, lk, lk_null);
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t r = 0; r < rk.size(); r++)
    if (rk_null.empty() || !rk_null[r]) lo = std::min(lo, rk[r]), hi = std::max(hi, rk[r]);
  const uint64_t span = lo > hi ? 0 : uint64_t(hi) - uint64_t(lo) + 1;  // 0: empty, or all 2^64 values
  KeyIndex index(lo > hi ? 0 : lo, span == 0 && lo <= hi ? UINT64_MAX : span, rk.size());
  for (size_t r = 0; r < rk.size(); r++)
    if ((rk_null.empty() || !rk_null[r]) && !index.insert(rk[r], uint32_t(r))) return std::nullopt;
  std::vector<uint32_t> match(lk.size());
#pragma omp parallel for schedule(static) if (lk.size() > (size_t(1) << 16))
  for (size_t r = 0; r < lk.size(); r++) match[r] = !lk_null.empty() && lk_null[r] ? kNoMatch : index.find(lk[r]);
  return match;
}

void append_matched(TempTableBuilder& b, size_t out, const TempTable& right, size_t c,
                    const std::vector<uint32_t>& match, std::optional<int64_t> absent) {
  const size_t n = match.size();
  const Type t = right.type(c);
  if (int_stored(t)) {
    std::vector<int64_t> src, values(n);
    std::vector<uint8_t> src_null, nulls(n);
    read_ints(right, c, src, src_null);
    for (size_t r = 0; r < n; r++) {
      const uint32_t m = match[r];
      if (m == kNoMatch && absent) {
        nulls[r] = 0, values[r] = *absent;
        continue;
      }
      nulls[r] = m == kNoMatch || (!src_null.empty() && src_null[m]);
      values[r] = nulls[r] ? 0 : src[m];
    }
    if (b.take_ints(out, std::move(values), std::move(nulls), n)) return;
  }
  for (size_t r = 0; r < n; r++)
    b.append(out, match[r] == kNoMatch ? (absent ? Value::bigint(*absent) : Value::null(t)) : right.value(match[r], c));
}

bool distinct_int_column(const TempTable& t, size_t c) {
  if (c >= t.columns() || !int_stored(t.type(c)) || t.rows() >= kNoMatch) return false;
  std::vector<int64_t> values;
  std::vector<uint8_t> nulls;
  read_ints(t, c, values, nulls);
  if (!nulls.empty()) return false;
  // Strictly ascending (a stored key column as loaded, TPC-H's c_custkey): distinct,
  // checked in one parallel pass with no index.
  bool ascending = true;
#pragma omp parallel for schedule(static) reduction(&& : ascending) if (values.size() > (size_t(1) << 16))
  for (size_t r = 1; r < values.size(); r++) ascending = ascending && values[r - 1] < values[r];
  if (ascending) return true;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int64_t v : values) lo = std::min(lo, v), hi = std::max(hi, v);
  const uint64_t span = lo > hi ? 0 : uint64_t(hi) - uint64_t(lo) + 1;
  KeyIndex index(lo > hi ? 0 : lo, span == 0 && lo <= hi ? UINT64_MAX : span, values.size());
  for (size_t r = 0; r < values.size(); r++)
    if (!index.insert(values[r], uint32_t(r))) return false;
  return true;
}

bool append_int_column(TempTableBuilder& b, size_t out, const TempTable& t, size_t c) {
  if (!int_stored(t.type(c))) return false;
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
