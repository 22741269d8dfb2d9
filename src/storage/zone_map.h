#pragma once
// Zone maps: per block of kBlockRows rows, the min and max of a column's non-NULL
// stored values and the block's NULL count, so a scan can skip blocks whose
// [min, max] cannot satisfy a range predicate (data skipping). Written at every commit
// from the bytes being written (storage/persist: one ".zmp" file per column,
// checksummed in the manifest), so no writer can leave them stale; a database without
// them opens and runs as before, with no skipping.
//
// DOUBLE blocks keep the min/max of their ordinary (non-NaN) values and a flag for a
// NaN. raydb orders NaN above every value (PostgreSQL's rule), so a block with a NaN
// is never skipped by a DOUBLE predicate: the rule is conservative and exact.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "raydb/types.h"

namespace raydb {

class ZoneMap {
 public:
  // 64 Ki rows: 4 CPU morsels (8 x 2048 rows) and whole GPU tiles per block, so a
  // skipped block removes whole units of work; 24 bytes per block are 1/10923 of an
  // INTEGER column; a month of SSB's sorted lineorder (~71 K rows per month at SF 1)
  // spans about two blocks, so date-range queries skip at month granularity.
  static constexpr uint64_t kBlockRows = uint64_t(1) << 16;
  static constexpr size_t kEntryBytes = 24;  // int64 min, int64 max, uint32 nulls, uint32 flags

  struct Block {
    int64_t min = 1, max = 0;  // DOUBLE: the doubles' bit patterns; no ordinary value: min > max
    uint32_t nulls = 0;
    uint32_t flags = 0;        // kHasNaN
  };
  static constexpr uint32_t kHasNaN = 1;

  ZoneMap() = default;
  // Builds the zone map of `rows` stored values of `type` at `data`; `validity`
  // (nullptr: no NULL) marks rows holding a value (bit i % 8 of byte i / 8).
  static ZoneMap build(const Type& type, const void* data, uint64_t rows, const uint8_t* validity);
  // Reads a file image written by bytes(). Throws kCatalog naming `what` when its size
  // or entries cannot describe `rows` rows of `type` with `block_rows` rows per block.
  static ZoneMap parse(const Type& type, const std::string& image, uint64_t rows, uint64_t block_rows,
                       const std::string& what);
  std::string bytes() const;  // the file image: one little-endian entry per block

  const Type& type() const { return type_; }
  uint64_t rows() const { return rows_; }
  uint64_t block_rows() const { return block_rows_; }
  size_t block_count() const { return blocks_.size(); }
  const Block& block(size_t b) const { return blocks_[b]; }
  uint64_t block_begin(size_t b) const { return uint64_t(b) * block_rows_; }
  uint64_t block_end(size_t b) const { return std::min(rows_, block_begin(b) + block_rows_); }

  // Whether block b may hold a non-NULL stored value in one of `ranges` (inclusive,
  // sorted, disjoint stored-integer ranges; integer-physical columns).
  bool may_match(size_t b, const std::vector<std::pair<int64_t, int64_t>>& ranges) const;
  // Whether block b of a DOUBLE column may hold a non-NULL value v with lo <(=) v <(=) hi
  // (`lo_open`/`hi_open`: strict); always true for a block holding a NaN.
  bool may_match_double(size_t b, double lo, bool lo_open, double hi, bool hi_open) const;

 private:
  Type type_;
  uint64_t rows_ = 0;
  uint64_t block_rows_ = kBlockRows;
  std::vector<Block> blocks_;
};

using ZoneMapPtr = std::shared_ptr<const ZoneMap>;

}  // namespace raydb
