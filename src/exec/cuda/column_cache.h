#pragma once
// Columns resident on the device, uploaded once per process and kept until
// clear(). Each column is stored in the narrowest exact form its statistics allow
// (offset or dictionary: storage/narrow_encoder.h), read from the narrowed file
// written at load (exec/cuda/narrowed_upload.h) or, for older databases and with
// fast_load off, narrowed here.
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpu/device_buffer.h"
#include "gpu/pinned_buffer.h"
#include "exec/cuda/kernel_params.h"
#include "storage/column.h"
#include "storage/pack_choice.h"

namespace raydb::exec::cuda {

struct DeviceColumn {
  ColumnPtr owner;  // keeps the Column (and so its address, the cache key) alive
  DevColumn dev;
  gpu::DeviceBuffer data, decode;
  std::vector<int64_t> host_decode;  // dictionary mode: sorted distinct values
  uint64_t rows = 0;
  // The stored values bit-packed for the star kernels (setting cuda_compression),
  // packed on the device from `data` on first request (ColumnCache::packed); beside
  // `data`, which every other kernel reads. packed_bits 0: none.
  gpu::DeviceBuffer packed;
  int packed_bits = 0;
  uint64_t bytes() const { return rows * uint64_t(dev.width); }
  // Maps inclusive value ranges to inclusive stored ranges (empty ones dropped).
  std::vector<std::pair<uint64_t, uint64_t>> stored_ranges(const std::vector<std::pair<int64_t, int64_t>>& r) const;
  // Largest stored value + 1 (the stored domain's size).
  uint64_t stored_range() const;
  int64_t value_of_stored(uint64_t s) const { return dev.decode ? host_decode[s] : int64_t(uint64_t(dev.base) + s); }
};

// The column's narrowed file, when the fast load path may read it (setting fast_load).
const NarrowedFile* fast_source(const Column& c);

class ColumnCache {
 public:
  static ColumnCache& instance();
  // The device copy of `c`, uploaded on first use (through pinned staging buffers).
  const DeviceColumn& get(const ColumnPtr& c, cudaStream_t stream);
  bool resident(const Column* c);
  bool empty();  // no column uploaded (or all dropped)
  // `d`'s packed copy at the width choose_pack_bits gives for `mode` (storage/
  // pack_choice.h), made on first request; {nullptr, 0} when the rule keeps it
  // unpacked or the memory budget has no room for the copy.
  std::pair<const uint32_t*, int> packed(const DeviceColumn& d, PackMode mode, cudaStream_t stream);
  // Device bytes `c` would take (its narrowed width; dictionary mode not predicted).
  static uint64_t estimate_bytes(const Column& c);
  // True when the integer column's values are distinct (computed once, cached).
  bool unique(const ColumnPtr& c);
  void clear();
  void release_staging();  // frees the pinned upload buffers (pinned again by the next upload)

 private:
  std::mutex mutex_;
  // Narrows `c` here (no narrowed file, or fast_load off) and uploads it into `d`.
  void upload_narrowing(const Column& c, DeviceColumn& d, cudaStream_t stream);
  std::unordered_map<const Column*, std::unique_ptr<DeviceColumn>> columns_;
  std::unordered_map<const Column*, std::pair<ColumnPtr, bool>> unique_;
  gpu::PinnedBuffer staging_[2];
};

}  // namespace raydb::exec::cuda
