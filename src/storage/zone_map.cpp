#include "storage/zone_map.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/error.h"

namespace raydb {

namespace {

bool row_valid(const uint8_t* validity, uint64_t i) { return !validity || ((validity[i >> 3] >> (i & 7)) & 1); }

// One block of an integer-physical column: min/max over the rows holding a value.
template <typename T>
ZoneMap::Block int_block(const T* v, uint64_t begin, uint64_t end, const uint8_t* validity) {
  ZoneMap::Block blk;
  T lo = 0, hi = 0;
  bool any = false;
  for (uint64_t i = begin; i < end; i++) {
    if (!row_valid(validity, i)) {
      blk.nulls++;
      continue;
    }
    if (!any || v[i] < lo) lo = v[i];
    if (!any || v[i] > hi) hi = v[i];
    any = true;
  }
  if (any) blk.min = int64_t(lo), blk.max = int64_t(hi);
  return blk;
}

ZoneMap::Block double_block(const double* v, uint64_t begin, uint64_t end, const uint8_t* validity) {
  ZoneMap::Block blk;
  double lo = 0, hi = 0;
  bool any = false;
  for (uint64_t i = begin; i < end; i++) {
    if (!row_valid(validity, i)) {
      blk.nulls++;
    } else if (std::isnan(v[i])) {
      blk.flags |= ZoneMap::kHasNaN;
    } else {
      if (!any || v[i] < lo) lo = v[i];
      if (!any || v[i] > hi) hi = v[i];
      any = true;
    }
  }
  // No ordinary value: +inf > -inf marks the empty range (min > max) for doubles too.
  blk.min = std::bit_cast<int64_t>(any ? lo : INFINITY);
  blk.max = std::bit_cast<int64_t>(any ? hi : -INFINITY);
  return blk;
}

}  // namespace

ZoneMap ZoneMap::build(const Type& type, const void* data, uint64_t rows, const uint8_t* validity) {
  ZoneMap z;
  z.type_ = type;
  z.rows_ = rows;
  const size_t n = size_t((rows + kBlockRows - 1) / kBlockRows);
  z.blocks_.resize(n);
  const int64_t nb = int64_t(n);
#pragma omp parallel for schedule(dynamic, 4) if (nb > 8)
  for (int64_t b = 0; b < nb; b++) {
    const uint64_t begin = uint64_t(b) * kBlockRows, end = std::min(rows, begin + kBlockRows);
    if (type.id == TypeId::kDouble)
      z.blocks_[size_t(b)] = double_block(static_cast<const double*>(data), begin, end, validity);
    else if (type.physical_width() == 4)
      z.blocks_[size_t(b)] = int_block(static_cast<const int32_t*>(data), begin, end, validity);
    else
      z.blocks_[size_t(b)] = int_block(static_cast<const int64_t*>(data), begin, end, validity);
  }
  return z;
}

std::string ZoneMap::bytes() const {
  std::string image(blocks_.size() * kEntryBytes, '\0');
  for (size_t b = 0; b < blocks_.size(); b++) {
    char* p = image.data() + b * kEntryBytes;
    std::memcpy(p, &blocks_[b].min, 8);
    std::memcpy(p + 8, &blocks_[b].max, 8);
    std::memcpy(p + 16, &blocks_[b].nulls, 4);
    std::memcpy(p + 20, &blocks_[b].flags, 4);
  }
  return image;
}

ZoneMap ZoneMap::parse(const Type& type, const std::string& image, uint64_t rows, uint64_t block_rows,
                       const std::string& what) {
  if (block_rows == 0) fail(ErrorKind::kCatalog, "zone map of {} has a block size of 0 rows", what);
  const uint64_t n = (rows + block_rows - 1) / block_rows;
  if (image.size() != n * kEntryBytes)
    fail(ErrorKind::kCatalog, "zone map of {} has {} bytes; {} rows in blocks of {} take {}", what, image.size(), rows,
         block_rows, n * kEntryBytes);
  ZoneMap z;
  z.type_ = type;
  z.rows_ = rows;
  z.block_rows_ = block_rows;
  z.blocks_.resize(size_t(n));
  for (size_t b = 0; b < z.blocks_.size(); b++) {
    Block& blk = z.blocks_[b];
    const char* p = image.data() + b * kEntryBytes;
    std::memcpy(&blk.min, p, 8);
    std::memcpy(&blk.max, p + 8, 8);
    std::memcpy(&blk.nulls, p + 16, 4);
    std::memcpy(&blk.flags, p + 20, 4);
    const uint64_t len = z.block_end(b) - z.block_begin(b);
    const bool is_double = type.id == TypeId::kDouble;
    const bool ordered = is_double ? std::bit_cast<double>(blk.min) <= std::bit_cast<double>(blk.max) : blk.min <= blk.max;
    // A block of values must have an ordered range; one of only NULLs (and NaNs) must not.
    const bool has_values = blk.nulls < len;
    const bool only_nan = is_double && (blk.flags & kHasNaN) && !ordered;
    if (blk.nulls > len || (blk.flags & ~(is_double ? kHasNaN : 0u)) != 0 ||
        (has_values && !ordered && !only_nan) || (!has_values && ordered))
      fail(ErrorKind::kCatalog, "zone map of {} is corrupted at block {}", what, b);
  }
  return z;
}

bool ZoneMap::may_match(size_t b, const std::vector<std::pair<int64_t, int64_t>>& ranges) const {
  const Block& blk = blocks_[b];
  if (blk.min > blk.max) return false;  // only NULLs: no comparison is TRUE on them
  // The first range ending at or above the block's min; it matches when it starts by max.
  auto it = std::lower_bound(ranges.begin(), ranges.end(), blk.min,
                             [](const std::pair<int64_t, int64_t>& r, int64_t v) { return r.second < v; });
  return it != ranges.end() && it->first <= blk.max;
}

bool ZoneMap::may_match_double(size_t b, double lo, bool lo_open, double hi, bool hi_open) const {
  const Block& blk = blocks_[b];
  if (blk.flags & kHasNaN) return true;
  const double mn = std::bit_cast<double>(blk.min), mx = std::bit_cast<double>(blk.max);
  if (!(mn <= mx)) return false;  // only NULLs
  if (lo_open ? !(mx > lo) : !(mx >= lo)) return false;
  if (hi_open ? !(mn < hi) : !(mn <= hi)) return false;
  return true;
}

}  // namespace raydb
