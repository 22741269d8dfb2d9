#pragma once
// The narrowest exact form of an integer column's values, as the GPU holds them
// (chosen once at load and stored beside the column, or per process for databases
// written before that):
//   offset:     stored = value - min as an unsigned 1-, 2-, 4- or 8-byte integer;
//               exact because value - min lies in [0, max - min] and fits the type
//               chosen from max - min, and value = min + stored is the inverse.
//   dictionary: when the values need 4+ bytes as offsets but at most 65536 distinct
//               values occur (dates in a fact table), stored = rank of the value
//               among the sorted distinct values (2 bytes); decode[rank] = value
//               is exact, and ranks order like values, so ranges stay ranges.
#include <cstdint>
#include <vector>

#include "storage/column.h"

namespace raydb {

class NarrowEncoder {
 public:
  // Chooses the form for `rows` stored values at `data` of integer-physical `type`
  // (not DOUBLE) whose min/max are `stats` (min > max: empty).
  NarrowEncoder(const Type& type, const void* data, uint64_t rows, const ColumnStats& stats);

  int width() const { return width_; }     // bytes per stored value: 1, 2, 4 or 8
  int64_t base() const { return base_; }   // offset mode: value = base + stored
  // Dictionary mode: the sorted distinct values (value = decode[stored]); else empty.
  const std::vector<int64_t>& decode() const { return decode_; }
  uint64_t encoded_bytes() const { return rows_ * uint64_t(width_); }
  // Writes rows [begin, begin + len) in stored form to `out` (len * width() bytes).
  void encode(uint64_t begin, uint64_t len, void* out) const;

  // Bytes per value of the offset form for values spanning `range` = max - min.
  static int width_for(uint64_t range);

 private:
  int64_t value(uint64_t row) const;
  uint64_t rank(int64_t v) const;  // dictionary mode: v's code
  const void* data_;
  uint64_t rows_;
  bool wide_;  // 8-byte stored values (else 4)
  int width_ = 8;
  int64_t base_ = 0;
  std::vector<int64_t> decode_;
  // Dictionary mode: bit value - base set for each distinct value, and per 64-bit word
  // the number of values below it.
  std::vector<uint64_t> rank_bits_;
  std::vector<uint32_t> rank_before_;
};

}  // namespace raydb
