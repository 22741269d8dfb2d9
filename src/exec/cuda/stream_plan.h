#pragma once
// Larger than the GPU: a star query whose fact columns do not fit the device memory
// budget streams them through in chunks of rows instead of failing. The dimension
// columns, lookup arrays and group accumulators stay resident; each chunk of the fact
// columns is copied from pinned host memory into one of a few reusable device buffers
// while the fact kernel (unchanged) runs over the chunk before it (star_stream.cpp).
// This header is the pure part, the same with or without a device: the chunk size
// from the budget, the chunks, and how EXPLAIN names them.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "exec/core/block_selection.h"

namespace raydb {
class Settings;
}

namespace raydb::exec::cuda {

// The setting cuda_stream: stream when the fact columns do not fit (auto), always (on:
// tests and benchmarks) or never (off: the query is refused as before).
enum class StreamMode { kAuto, kOn, kOff };
StreamMode stream_mode(const Settings& settings);
// The setting cuda_stream_chunk_rows (0: sized from the budget).
uint64_t stream_chunk_setting(const Settings& settings);

// Device buffers the chunks rotate through: one being copied, one being read by the
// kernel, one spare so the copy engine never waits for the kernel of the chunk before.
constexpr int kStreamSlots = 3;
// Rows per chunk when the budget allows more and the setting asks for nothing: 4M rows
// keeps the launches few (30 at SSB SF 20) and the unhidden first copy short.
constexpr uint64_t kDefaultStreamChunkRows = uint64_t(1) << 22;

struct StreamPlan {
  uint64_t chunk_rows = 0;  // rows per chunk, a multiple of the kernel's tile
  uint64_t chunks = 0;      // chunks copied and launched (data skipping's ranges split)
  uint64_t rows = 0;        // fact rows inside them
  uint64_t row_bytes = 0;   // bytes per fact row of the streamed (not resident) columns
  uint64_t bytes() const { return rows * row_bytes; }
  std::string describe() const;  // "streamed (N chunks of M rows)"
};

// What sizes a chunk: device memory left, what the query still uploads whole (the
// dimension side), and the streamed bytes per fact row.
struct StreamBudget {
  uint64_t free_bytes = 0;     // budget - in use
  uint64_t other_bytes = 0;    // device bytes of the non-streamed columns not resident yet
                               // and of the dimensions' lookup arrays
  uint64_t row_bytes = 0;      // streamed bytes per fact row
  uint64_t setting_rows = 0;   // cuda_stream_chunk_rows (0: from the budget)
};

// Rows per chunk: the setting rounded up to the tile, else kDefaultStreamChunkRows,
// either way at most what kStreamSlots buffers in half of the memory left after the
// dimension side hold (the other half for lookup arrays, accumulators and filter
// sets). A one-line reason when not even one tile fits.
std::variant<uint64_t, std::string> stream_chunk_rows(const StreamBudget& b);

// Each range split into chunks of at most `chunk_rows` rows, each starting at its
// range's start plus a multiple of chunk_rows (so on a tile when ranges start on
// zone-map blocks); empty ranges give none.
std::vector<RowRange> stream_chunks(const std::vector<RowRange>& ranges, uint64_t chunk_rows);

}  // namespace raydb::exec::cuda
