#include "storage/persist/checksum.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

namespace raydb::persist {

namespace {

uint64_t combine(const std::vector<uint64_t>& block_sums) {
  // Hash the little-endian block values (the host is little-endian: see database_directory.cpp).
  return XXH3_64bits(block_sums.data(), block_sums.size() * sizeof(uint64_t));
}

size_t block_count(size_t bytes) { return (bytes + kChecksumBlockBytes - 1) / kChecksumBlockBytes; }

// Blocks hash and find their min/max independently; T's min/max use std::min/std::max
// from (max, lowest), as compute_stats does, so NaNs never enter and results agree.
template <typename T>
ColumnScan scan_typed(const T* v, uint64_t rows) {
  const size_t bytes = size_t(rows) * sizeof(T);
  const int64_t blocks = int64_t(block_count(bytes));
  const uint64_t per_block = kChecksumBlockBytes / sizeof(T);
  std::vector<uint64_t> sums(static_cast<size_t>(blocks));
  T mn = std::numeric_limits<T>::max(), mx = std::numeric_limits<T>::lowest();
#pragma omp parallel for reduction(min : mn) reduction(max : mx) schedule(static) if (blocks > 4)
  for (int64_t b = 0; b < blocks; b++) {
    const uint64_t first = uint64_t(b) * per_block, last = std::min<uint64_t>(rows, first + per_block);
    sums[size_t(b)] = XXH3_64bits(v + first, size_t(last - first) * sizeof(T));
    T lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::lowest();
    for (uint64_t i = first; i < last; i++) {
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
    mn = std::min(mn, lo);
    mx = std::max(mx, hi);
  }
  ColumnScan out;
  out.checksum = combine(sums);
  if constexpr (std::is_same_v<T, double>) {
    out.stats.min_d = mn;
    out.stats.max_d = mx;
    out.stats.min = 0;
    out.stats.max = -1;
  } else {
    out.stats.min = mn;
    out.stats.max = mx;
  }
  return out;
}

bool same_double(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

uint64_t file_checksum(const void* data, size_t bytes) {
  const int64_t blocks = int64_t(block_count(bytes));
  std::vector<uint64_t> sums(static_cast<size_t>(blocks));
  const char* p = static_cast<const char*>(data);
#pragma omp parallel for schedule(static) if (blocks > 4)
  for (int64_t b = 0; b < blocks; b++) {
    const size_t first = size_t(b) * kChecksumBlockBytes;
    sums[size_t(b)] = XXH3_64bits(p + first, std::min(kChecksumBlockBytes, bytes - first));
  }
  return combine(sums);
}

std::string checksum_hex(uint64_t sum) { return fmt::format("{:016x}", sum); }

std::optional<uint64_t> parse_checksum_hex(std::string_view hex) {
  if (hex.size() != 16) return std::nullopt;
  uint64_t v = 0;
  for (char c : hex) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | uint64_t(d);
  }
  return v;
}

ColumnScan scan_column(const Type& type, const void* data, uint64_t rows) {
  ColumnScan out;
  if (rows == 0) {
    out.checksum = file_checksum(nullptr, 0);
    return out;
  }
  if (type.id == TypeId::kDouble) return scan_typed(static_cast<const double*>(data), rows);
  if (type.physical_width() == 4) return scan_typed(static_cast<const int32_t*>(data), rows);
  return scan_typed(static_cast<const int64_t*>(data), rows);
}

bool same_stats(const Type& type, const ColumnStats& a, const ColumnStats& b) {
  if (type.id == TypeId::kDouble) return same_double(a.min_d, b.min_d) && same_double(a.max_d, b.max_d);
  return a.min == b.min && a.max == b.max;
}

std::string stats_text(const Type& type, const ColumnStats& s) {
  if (type.id == TypeId::kDouble) return fmt::format("min {}, max {}", s.min_d, s.max_d);
  return fmt::format("min {}, max {}", s.min, s.max);
}

}  // namespace raydb::persist
