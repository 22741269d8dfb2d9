#include "exec/cpu/join_table.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "common/error.h"
#include "exec/cpu/packed_key_sort.h"

namespace raydb::exec {

uint64_t JoinTable::hash(const int64_t* key, int width) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < width; i++) {
    h ^= uint64_t(key[i]) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

void JoinTable::build(std::vector<int64_t> keys, int width, std::vector<uint32_t> rows) {
  width_ = width;
  bits_.clear();
  const size_t n = rows.size();
  if (n >= kNone) fail(ErrorKind::kNotImplemented, "join build side has {} rows; at most 2^32-2 are supported", n);
  build_rows_ = n;
  offsets_.clear();
  first_.clear();
  slots_.clear();
  // Radix-sorted when the rows come in ascending order (a scan's: equal keys then keep
  // ascending rows, as the comparison sort's tie-break) and the keys pack into 64 bits.
  PackedKeySort sorter;
  const bool rows_ascending = std::is_sorted(rows.begin(), rows.end());
  if (rows_ascending && take_increasing_keys(keys, rows)) {
    // one group per row, already in key order
  } else if (rows_ascending && sorter.sort(keys.data(), n, width)) {
    const std::vector<uint32_t>& order = sorter.order();
    rows_.resize(n);
    for (size_t i = 0; i < n; i++) rows_[i] = rows[order[i]];
    group_packed_keys(sorter);
  } else {
    const std::vector<uint32_t> order = sort_rows(keys, rows);
    group_keys(keys, order);
  }
  // Dense index when one key word spans a small range (a few slots per key at most).
  dense_ = false;
  if (width == 1 && distinct_ > 0 && build_dense()) return;
  if (distinct_ == 0) {
    dense_ = true;  // empty: everything misses
    range_ = 0;
    offsets_.assign(1, 0);
    first_.clear();
    return;
  }
  if (group_begin_.size() != distinct_ + 1) {  // take_increasing_keys' groups: one row each
    group_begin_.resize(distinct_ + 1);
    std::iota(group_begin_.begin(), group_begin_.end(), 0u);
  }
  build_hashed();
  if (width == 1) build_hashed_presence_bits();
}

// One strictly increasing key word per row (a primary key scanned in stored order:
// orders by o_orderkey): the rows are sorted, unique and their own groups as they come,
// so nothing is sorted or copied.
bool JoinTable::take_increasing_keys(std::vector<int64_t>& keys, std::vector<uint32_t>& rows) {
  if (width_ != 1) return false;
  for (size_t i = 1; i < keys.size(); i++)
    if (keys[i] <= keys[i - 1]) return false;
  unique_ = true;
  distinct_ = keys.size();
  rows_ = std::move(rows);
  group_keys_ = std::move(keys);
  group_begin_.clear();  // group g is row g: filled only if the table is hashed
  return true;
}

std::vector<uint32_t> JoinTable::sort_rows(const std::vector<int64_t>& keys, const std::vector<uint32_t>& rows) {
  // Order build rows by key (ties by row id, so results are deterministic).
  const size_t n = rows.size();
  const int width = width_;
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto key_less = [&](uint32_t a, uint32_t b) {
    const int64_t* ka = &keys[size_t(a) * size_t(width)];
    const int64_t* kb = &keys[size_t(b) * size_t(width)];
    for (int i = 0; i < width; i++)
      if (ka[i] != kb[i]) return ka[i] < kb[i];
    return rows[a] < rows[b];
  };
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; i++) sorted = !key_less(uint32_t(i), uint32_t(i - 1));
  if (!sorted) std::sort(order.begin(), order.end(), key_less);
  rows_.resize(n);
  for (size_t i = 0; i < n; i++) rows_[i] = rows[order[i]];
  return order;
}

void JoinTable::group_packed_keys(const PackedKeySort& sorter) {
  const std::vector<uint64_t>& p = sorter.packed();
  const size_t n = p.size();
  group_begin_.clear();
  group_keys_.clear();
  unique_ = true;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || p[i] != p[i - 1]) {
      group_begin_.push_back(uint32_t(i));
      group_keys_.resize(group_keys_.size() + size_t(width_));
      sorter.unpack(p[i], &group_keys_[group_keys_.size() - size_t(width_)]);
    } else {
      unique_ = false;
    }
  }
  distinct_ = group_begin_.size();
  group_begin_.push_back(uint32_t(n));
}

void JoinTable::group_keys(const std::vector<int64_t>& keys, const std::vector<uint32_t>& order) {
  // Distinct keys and their ranges.
  const size_t n = order.size();
  const int width = width_;
  auto key_of = [&](size_t sorted_index) { return &keys[size_t(order[sorted_index]) * size_t(width)]; };
  auto same = [&](size_t a, size_t b) { return std::memcmp(key_of(a), key_of(b), sizeof(int64_t) * size_t(width)) == 0; };
  group_begin_.clear();
  group_keys_.clear();
  unique_ = true;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || !same(i, i - 1)) {
      group_begin_.push_back(uint32_t(i));
      group_keys_.insert(group_keys_.end(), key_of(i), key_of(i) + width);
    } else {
      unique_ = false;
    }
  }
  distinct_ = group_begin_.size();
  group_begin_.push_back(uint32_t(n));
}

bool JoinTable::build_dense() {
  int64_t lo = group_keys_.front(), hi = group_keys_.back();
  unsigned __int128 range = (unsigned __int128)((__int128)hi - (__int128)lo) + 1;
  // A unique key takes a key-indexed row array up to 16 slots a key (64 bytes, against
  // about 24 for the hash table's slots, keys and groups): its build writes rows in key
  // order instead of scattering them over hash slots (Q21's 731 k 'F' orders over 6 M
  // keys: 17-25 ms of build), and a probe reads one slot.
  const uint64_t per_key = unique_ ? 16 : 8;
  if (range > std::max<unsigned __int128>(uint64_t(1) << 20, (unsigned __int128)distinct_ * per_key)) return false;
  dense_ = true;
  min_key_ = lo;
  range_ = uint64_t(range);
  if (unique_)
    build_dense_unique();
  else
    build_dense_offsets();
  group_keys_.clear();
  group_keys_.shrink_to_fit();
  return true;
}

// first_ is the key-indexed row array; find() returns positions into it, so rows_
// (the same rows in key order) is dropped.
void JoinTable::build_dense_unique() {
  const int64_t lo = min_key_;
  first_.assign(range_, kNone);
  for (size_t i = 0; i < distinct_; i++) first_[uint64_t(group_keys_[i] - lo)] = rows_[i];  // unique: group i is row i
  rows_.clear();
  rows_.shrink_to_fit();
  group_begin_.clear();
  group_begin_.shrink_to_fit();
  // Presence bits pay when most probes miss and first_ does not fit L1.
  if (range_ * sizeof(uint32_t) > (32u << 10) && distinct_ * 2 < range_) {
    bits_.assign((range_ + 63) / 64, 0);
    for (size_t i = 0; i < distinct_; i++) {
      uint64_t off = uint64_t(group_keys_[i] - lo);
      bits_[off >> 6] |= uint64_t(1) << (off & 63);
    }
  }
}

void JoinTable::build_dense_offsets() {
  const int64_t lo = min_key_;
  offsets_.assign(range_ + 1, 0);
  // offsets_[k] = first sorted position with key >= lo + k.
  size_t g = 0;
  for (uint64_t k = 0; k <= range_; k++) {
    while (g < distinct_ && uint64_t(group_keys_[g] - lo) < k) g++;
    offsets_[k] = group_begin_[g];
  }
}

void JoinTable::build_hashed() {
  size_t cap = 16;
  while (cap < distinct_ * 2) cap <<= 1;
  mask_ = cap - 1;
  slots_.assign(cap, 0);
  for (size_t g = 0; g < distinct_; g++) {
    uint64_t h = hash(&group_keys_[g * size_t(width_)], width_) & mask_;
    while (slots_[h]) h = (h + 1) & mask_;
    slots_[h] = uint32_t(g + 1);
  }
}

// A hashed one-word table whose keys are sparse in a range that a bitmap of at most
// 16 MiB covers (TPC-H's filtered orders: 227 k of 6 M order keys) gets presence bits:
// most probes then miss on one bit of a cache-resident bitmap instead of a hash slot
// and a key compare in memory.
void JoinTable::build_hashed_presence_bits() {
  const int64_t lo = group_keys_.front(), hi = group_keys_.back();  // sorted
  const unsigned __int128 range = (unsigned __int128)((__int128)hi - (__int128)lo) + 1;
  if (range > (unsigned __int128)(uint64_t(1) << 27) || distinct_ * 2 >= uint64_t(range)) return;
  min_key_ = lo;
  range_ = uint64_t(range);
  bits_.assign((range_ + 63) / 64, 0);
  for (size_t g = 0; g < distinct_; g++) {
    const uint64_t off = uint64_t(group_keys_[g] - lo);
    bits_[off >> 6] |= uint64_t(1) << (off & 63);
  }
}

void JoinTable::find_hashed(const int64_t* key, uint32_t& begin, uint32_t& end) const {
  if (!bits_.empty()) {  // presence bits of a one-word table
    const uint64_t off = unsigned_span(min_key_, key[0]);
    if (off >= range_ || !(bits_[off >> 6] >> (off & 63) & 1)) {
      begin = end = 0;
      return;
    }
  }
  uint64_t h = hash(key, width_) & mask_;
  while (uint32_t s = slots_[h]) {
    const int64_t* k = &group_keys_[size_t(s - 1) * size_t(width_)];
    bool eq = true;
    for (int i = 0; i < width_; i++) eq &= k[i] == key[i];
    if (eq) {
      begin = group_begin_[s - 1];
      end = group_begin_[s];
      return;
    }
    h = (h + 1) & mask_;
  }
  begin = end = 0;
}

std::optional<std::vector<int64_t>> JoinTable::column_keys(int m) const {
  if (m < 0 || m >= width_ || group_keys_.size() != distinct_ * uint64_t(width_)) return std::nullopt;
  std::vector<int64_t> out(distinct_);
  for (size_t g = 0; g < distinct_; g++) out[g] = group_keys_[g * size_t(width_) + size_t(m)];
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

size_t JoinTable::memory_bytes() const {
  return rows_.size() * 4 + offsets_.size() * 4 + first_.size() * 4 + bits_.size() * 8 +
         slots_.size() * 4 + group_keys_.size() * 8 + group_begin_.size() * 4;
}

}  // namespace raydb::exec
