#include "sql/domain_join.h"

#include <bit>
#include <cstdint>

namespace raydb::sql {

namespace {

bool int_stored(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate ||
         t.id == TypeId::kTimestamp || (t.id == TypeId::kDecimal && t.precision <= 18);
}

// Column c of t as stored words, and its NULL flags (empty: none).
void read_ints(const TempTable& t, size_t c, std::vector<int64_t>& values, std::vector<uint8_t>& nulls) {
  const Column& col = t.table->column(c);
  const uint64_t n = t.rows();
  values.resize(n);
  for (uint64_t r = 0; r < n; r++) values[r] = col.get_int(r);
  nulls.clear();
  if (t.nullable(c)) {
    const Column& flag = t.table->column(size_t(t.null_flag[c]));
    nulls.resize(n);
    for (uint64_t r = 0; r < n; r++) nulls[r] = flag.get_int(r) != 0;
  }
}

// Open addressing over int64 keys (load at most 1/2): the per_key row of each key.
class KeyIndex {
 public:
  explicit KeyIndex(size_t n) : mask_(std::bit_ceil(std::max<size_t>(2 * n, 16)) - 1), rows_(mask_ + 1, kEmpty) {
    keys_.resize(mask_ + 1);
  }
  // False when the key is there already.
  bool insert(int64_t k, uint32_t row) {
    for (size_t s = slot(k);; s = (s + 1) & mask_) {
      if (rows_[s] == kEmpty) {
        rows_[s] = row, keys_[s] = k;
        return true;
      }
      if (keys_[s] == k) return false;
    }
  }
  uint32_t find(int64_t k) const {
    for (size_t s = slot(k);; s = (s + 1) & mask_) {
      if (rows_[s] == kEmpty || keys_[s] == k) return rows_[s];
    }
  }
  static constexpr uint32_t kEmpty = UINT32_MAX;

 private:
  size_t slot(int64_t k) const { return size_t((uint64_t(k) * 0x9E3779B97F4A7C15ull) >> 17) & mask_; }
  size_t mask_;
  std::vector<uint32_t> rows_;
  std::vector<int64_t> keys_;
};

}  // namespace

std::optional<TempTable> left_join_unique_keys(const TempTable& keys, const TempTable& per_key,
                                               const std::vector<std::string>& names, const std::string& table_name,
                                               const std::string& what) {
  if (keys.columns() < 1 || per_key.columns() < 1 || names.size() != per_key.columns()) return std::nullopt;
  if (!(keys.type(0) == per_key.type(0)) || !int_stored(keys.type(0)) || keys.nullable(0)) return std::nullopt;
  if (keys.rows() >= UINT32_MAX || per_key.rows() >= UINT32_MAX) return std::nullopt;
  std::vector<int64_t> pk, dk;
  std::vector<uint8_t> pk_null, dk_null;
  read_ints(per_key, 0, pk, pk_null);
  read_ints(keys, 0, dk, dk_null);
  KeyIndex index(pk.size());
  for (size_t r = 0; r < pk.size(); r++)
    if ((pk_null.empty() || !pk_null[r]) && !index.insert(pk[r], uint32_t(r))) return std::nullopt;
  // Per keys row: its per_key row, or kEmpty (a NULL key never matches, as in ON).
  const size_t n = dk.size();
  std::vector<uint32_t> match(n);
  for (size_t r = 0; r < n; r++) match[r] = index.find(dk[r]);

  std::vector<Type> types;
  for (size_t c = 0; c < per_key.columns(); c++) types.push_back(c == 0 ? keys.type(0) : per_key.type(c));
  TempTableBuilder b(table_name, names, types, what);
  b.reserve(n);
  b.append_ints(0, dk.data(), {}, n);
  std::vector<int64_t> src, out(n);
  std::vector<uint8_t> src_null, out_null(n);
  for (size_t c = 1; c < per_key.columns(); c++) {
    if (int_stored(types[c]) || types[c].id == TypeId::kBoolean) {
      read_ints(per_key, c, src, src_null);
      for (size_t r = 0; r < n; r++) {
        const uint32_t m = match[r];
        out_null[r] = m == KeyIndex::kEmpty || (!src_null.empty() && src_null[m]);
        out[r] = out_null[r] ? 0 : src[m];
      }
      if (b.append_ints(c, out.data(), out_null, n)) continue;
    }
    for (size_t r = 0; r < n; r++)
      b.append(c, match[r] == KeyIndex::kEmpty ? Value::null(types[c]) : per_key.value(match[r], c));
  }
  return b.finish();
}

}  // namespace raydb::sql
