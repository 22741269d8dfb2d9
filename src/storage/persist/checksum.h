#pragma once
// File checksums for the database directory (manifest "checksum" fields). A file's
// checksum is XXH3-64 over the XXH3-64 values (little-endian uint64) of its 1 MiB
// blocks, so large column files hash in parallel; printed as 16 lowercase hex digits.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/column.h"

namespace raydb::persist {

inline constexpr size_t kChecksumBlockBytes = size_t(1) << 20;

// The checksum of `bytes` bytes at `data` (parallel over blocks).
uint64_t file_checksum(const void* data, size_t bytes);

std::string checksum_hex(uint64_t sum);
// The value of 16 hex digits, or nullopt when `hex` is not that.
std::optional<uint64_t> parse_checksum_hex(std::string_view hex);

// One pass over a column's stored values: its checksum and its min/max statistics
// (compute_stats's definition), so verifying both reads the data once.
struct ColumnScan {
  uint64_t checksum = 0;
  ColumnStats stats;
};
ColumnScan scan_column(const Type& type, const void* data, uint64_t rows);

// Whether two statistics of a column of `type` agree (DOUBLE: NaN equals NaN).
bool same_stats(const Type& type, const ColumnStats& a, const ColumnStats& b);
// "min X, max Y" in stored form, for messages.
std::string stats_text(const Type& type, const ColumnStats& s);

}  // namespace raydb::persist
