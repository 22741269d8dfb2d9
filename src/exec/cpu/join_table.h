#pragma once
// The build side of an equi-join: build rows grouped by key, found through a dense
// key-indexed array when the key range is small (the common star-schema case: a
// dimension's primary key), else an open-addressing hash index. Keys are W 64-bit
// words (one per join column, already encoded so equal SQL values give equal words).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/int_math.h"

namespace raydb::exec {

class PackedKeySort;

class JoinTable {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // keys: row-major, `width` words per build row; rows: the build rows' ids.
  void build(std::vector<int64_t> keys, int width, std::vector<uint32_t> rows);

  int width() const { return width_; }
  uint64_t build_rows() const { return build_rows_; }
  uint64_t distinct_keys() const { return distinct_; }
  bool unique() const { return unique_; }  // every key has at most one build row
  bool dense() const { return dense_; }
  size_t memory_bytes() const;

  // Matching build rows of `key`: [begin, end) into rows(). Empty range when none.
  void find(const int64_t* key, uint32_t& begin, uint32_t& end) const {
    if (dense_ && unique_) {  // positions into first_ (rows())
      uint64_t off = unsigned_span(min_key_, key[0]);
      uint32_t r = off < range_ ? first_[off] : kNone;
      begin = r == kNone ? 0 : uint32_t(off);
      end = r == kNone ? 0 : begin + 1;
      return;
    }
    if (dense_) {
      uint64_t off = unsigned_span(min_key_, key[0]);
      if (off >= range_) {
        begin = end = 0;
        return;
      }
      begin = offsets_[off];
      end = offsets_[off + 1];
      return;
    }
    find_hashed(key, begin, end);
  }
  // Unique tables only: the one matching build row, or kNone.
  uint32_t find_unique(int64_t key) const {
    if (dense_) {
      uint64_t off = unsigned_span(min_key_, key);
      return off < range_ ? first_[off] : kNone;
    }
    uint32_t b, e;
    find_hashed(&key, b, e);
    return b < e ? rows_[b] : kNone;
  }
  const uint32_t* rows() const { return dense_ && unique_ ? first_.data() : rows_.data(); }

  // The distinct values of key word m over the build rows, sorted; nullopt when the
  // table keeps no key words (a semi-join reduction by one column, join_build.h).
  std::optional<std::vector<int64_t>> column_keys(int m) const;

  // Hashed unique one-word tables, probed in batches: a key's first slot, prefetches of
  // that slot and (once it is cached) of the group it holds, and the lookup from it. A
  // probe of a table larger than the cache misses two or three times in a row; batches
  // keep the misses of rows in flight overlapping (TPC-H Q5: 6 M lineitem rows into
  // 227 k orders).
  bool may_contain(int64_t key) const {  // false only where presence bits rule it out
    if (bits_.empty()) return true;
    const uint64_t off = unsigned_span(min_key_, key);
    return off < range_ && (bits_[off >> 6] >> (off & 63) & 1);
  }
  uint64_t home_slot(int64_t key) const { return hash(&key, 1) & mask_; }
  void prefetch_slot(uint64_t h) const { __builtin_prefetch(&slots_[h]); }
  void prefetch_group(uint64_t h) const {
    if (const uint32_t s = slots_[h]) {
      __builtin_prefetch(&group_keys_[s - 1]);
      __builtin_prefetch(&group_begin_[s - 1]);
    }
  }
  uint32_t find_unique_from(int64_t key, uint64_t h) const {
    while (const uint32_t s = slots_[h]) {
      if (group_keys_[s - 1] == key) return rows_[group_begin_[s - 1]];
      h = (h + 1) & mask_;
    }
    return kNone;
  }

  // Presence bits over a dense unique key range, built when few keys survived and
  // the row array is larger than L1: a probe tests one bit (the bitmap is 32x
  // smaller) before touching the row array; also over the key range of a hashed
  // one-word table whose keys are sparse in it (build_hashed_presence_bits). Empty
  // otherwise.
  bool has_presence_bits() const { return !bits_.empty(); }
  // Unique tables with presence bits: the build row of `key` or kNone.
  uint32_t find_unique_filtered(int64_t key) const {
    uint64_t off = unsigned_span(min_key_, key);
    if (off >= range_ || !(bits_[off >> 6] >> (off & 63) & 1)) return kNone;
    if (dense_) return first_[off];
    uint32_t b, e;
    find_hashed(&key, b, e);
    return b < e ? rows_[b] : kNone;
  }

 private:
  // Build steps: rows_ sorted by key (returns the sorting permutation), the distinct
  // keys and their row ranges, then a dense index (false when the key range is too
  // wide) or the hash index.
  std::vector<uint32_t> sort_rows(const std::vector<int64_t>& keys, const std::vector<uint32_t>& rows);
  void group_keys(const std::vector<int64_t>& keys, const std::vector<uint32_t>& order);
  void group_packed_keys(const PackedKeySort& sorter);
  bool take_increasing_keys(std::vector<int64_t>& keys, std::vector<uint32_t>& rows);
  bool build_dense();
  void build_dense_unique();
  void build_dense_offsets();
  void build_hashed();
  void build_hashed_presence_bits();
  void find_hashed(const int64_t* key, uint32_t& begin, uint32_t& end) const;
  static uint64_t hash(const int64_t* key, int width);

  int width_ = 1;
  bool unique_ = true;
  bool dense_ = false;
  uint64_t distinct_ = 0;
  uint64_t build_rows_ = 0;
  std::vector<uint32_t> rows_;  // build rows sorted by key (empty for dense unique tables: first_)
  // Dense: offsets_[k - min_key_] .. offsets_[k - min_key_ + 1]; first_ for unique.
  int64_t min_key_ = 0;
  uint64_t range_ = 0;
  std::vector<uint32_t> offsets_;     // non-unique dense tables
  std::vector<uint32_t> first_;       // unique dense tables: build row per key
  std::vector<uint64_t> bits_;
  // Hashed: slots hold group index + 1 (0 = empty); groups hold key words and ranges.
  std::vector<uint32_t> slots_;
  uint64_t mask_ = 0;
  std::vector<int64_t> group_keys_;  // width_ words per group
  std::vector<uint32_t> group_begin_;  // distinct_ + 1 entries
};

}  // namespace raydb::exec
