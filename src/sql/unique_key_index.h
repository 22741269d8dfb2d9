#pragma once
// The row of each key of an integer key column whose non-NULL keys are distinct (a
// grouped per-key table's key column), for the host's unique-key joins
// (sql/unique_key_join.h): a direct array over the keys' span when it is at most 4x the
// rows, else an open-addressing table. The direct array is filled and its keys inserted
// in parallel (a second pass finds a key held twice), reading the column in place: TPC-H Q13's 2 M keys at SF 20 cost one parallel pass, not a widened copy and a
// serial loop.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "storage/column.h"

namespace raydb::sql {

constexpr uint32_t kNoMatch = UINT32_MAX;

class UniqueKeyIndex {
 public:
  // The first n rows of `keys` (integer-stored, 4 or 8 bytes a value); `nulls`, when
  // given, an indicator column (non-zero: the row's key is NULL, left out). nullopt when
  // a non-NULL key is held twice, or n >= kNoMatch.
  static std::optional<UniqueKeyIndex> build(const Column& keys, const Column* nulls, uint64_t n);

  // The row holding k, or kNoMatch.
  uint32_t find(int64_t k) const {
    if (direct_) {
      const uint64_t at = uint64_t(k) - uint64_t(lo_);  // below lo_: wraps past span_
      return at < span_ ? rows_[at] : kNoMatch;
    }
    for (size_t s = slot(k);; s = (s + 1) & mask_)
      if (rows_[s] == kNoMatch || keys_[s] == k) return rows_[s];
  }
  bool direct() const { return direct_; }

 private:
  UniqueKeyIndex() = default;
  // Each non-NULL key's row (nulls[r] != 0: row r's key is NULL); false when a key is
  // held twice. fill_direct / fill_hashed return a Fill (unique_key_index.cpp).
  template <typename T, typename N>
  bool fill(const T* keys, const N* nulls, uint64_t n, const ColumnStats& stats);
  template <typename T, typename N>
  int fill_direct(const T* keys, const N* nulls, uint64_t n);
  template <typename T, typename N>
  int fill_hashed(const T* keys, const N* nulls, uint64_t n);
  size_t slot(int64_t k) const { return size_t((uint64_t(k) * 0x9E3779B97F4A7C15ull) >> 17) & mask_; }

  int64_t lo_ = 0;
  uint64_t span_ = 0;  // direct: slots over [lo_, lo_ + span_)
  bool direct_ = false;
  size_t mask_ = 0;    // hashed: slots - 1
  std::unique_ptr<uint32_t[]> rows_;  // kNoMatch: empty
  std::vector<int64_t> keys_;         // hashed only
};

}  // namespace raydb::sql
