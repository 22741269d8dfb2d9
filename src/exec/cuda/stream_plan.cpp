#include "exec/cuda/stream_plan.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "common/settings.h"
#include "exec/cuda/kernel_params.h"

namespace raydb::exec::cuda {

StreamMode stream_mode(const Settings& settings) {
  const std::string v = settings.get("cuda_stream");
  if (v.empty() || v == "auto") return StreamMode::kAuto;
  if (v == "on") return StreamMode::kOn;
  if (v == "off") return StreamMode::kOff;
  fail(ErrorKind::kInvalidInput, "RAYDB_CUDA_STREAM='{}' (expected auto, on or off)", v);
}

uint64_t stream_chunk_setting(const Settings& settings) {
  const std::string v = settings.get("cuda_stream_chunk_rows");
  if (v.empty()) return 0;
  if (v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
    fail(ErrorKind::kInvalidInput, "RAYDB_CUDA_STREAM_CHUNK_ROWS='{}' (expected a row count)", v);
  return std::stoull(v);
}

std::string StreamPlan::describe() const {
  return fmt::format("streamed ({} chunk{} of {} rows)", chunks, chunks == 1 ? "" : "s", chunk_rows);
}

std::variant<uint64_t, std::string> stream_chunk_rows(const StreamBudget& b) {
  const uint64_t tile = uint64_t(kStarTileRows);
  const uint64_t row_bytes = std::max<uint64_t>(b.row_bytes, 1);
  const uint64_t left = b.free_bytes > b.other_bytes ? b.free_bytes - b.other_bytes : 0;
  const uint64_t fit = left / 2 / (uint64_t(kStreamSlots) * row_bytes) / tile * tile;
  if (fit == 0)
    return fmt::format("{} chunk buffers of one {}-row tile ({} bytes a row) do not fit the {:.1f} MiB of GPU memory "
                       "left beside the dimension side",
                       kStreamSlots, tile, row_bytes, double(left) / (1 << 20));
  const uint64_t want = b.setting_rows > 0 ? (b.setting_rows + tile - 1) / tile * tile : kDefaultStreamChunkRows;
  return std::min(want, fit);
}

std::vector<RowRange> stream_chunks(const std::vector<RowRange>& ranges, uint64_t chunk_rows) {
  std::vector<RowRange> out;
  if (chunk_rows == 0) return out;
  for (const RowRange& r : ranges)
    for (uint64_t b = r.begin; b < r.end; b += std::min(chunk_rows, r.end - b))
      out.push_back(RowRange{b, std::min(r.end, b + chunk_rows)});
  return out;
}

}  // namespace raydb::exec::cuda
