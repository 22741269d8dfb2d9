#pragma once
// Where a stored column's narrowed form lives (storage/narrow_encoder.h): a file of
// rows * width stored values followed by `distinct` little-endian int64 decode
// values (dictionary mode), written at load beside the column file and checksummed
// like it (storage/persist/checksum.h). Readers that move the column to the GPU read
// this file instead of narrowing the column file per process.
#include <cstdint>
#include <string>

namespace raydb {

struct NarrowedFile {
  std::string path;    // absolute or relative to the working directory
  std::string what;    // table.column, for messages
  uint64_t rows = 0;
  int width = 8;       // bytes per stored value
  int64_t base = 0;    // offset mode: value = base + stored
  uint64_t distinct = 0;  // dictionary mode: decode values after the stored values; 0 = offset mode
  uint64_t checksum = 0;  // of the whole file
  uint64_t value_bytes() const { return rows * uint64_t(width); }
  uint64_t bytes() const { return value_bytes() + distinct * 8; }
};

}  // namespace raydb
