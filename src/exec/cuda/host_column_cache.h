#pragma once
// Fact columns that stream through the GPU (stream_plan.h) live in pinned host memory
// in their device form (the narrowed values ColumnCache would upload), so each run of a
// streamed query is DMA at the link's speed: no file read, no narrowing, no staging
// copy. Filled once per process on first use, like ColumnCache; only the dictionary of
// a dictionary-encoded column goes to the device.
#include <memory>
#include <mutex>
#include <unordered_map>

#include "exec/cuda/column_cache.h"
#include "gpu/pinned_buffer.h"

namespace raydb::exec::cuda {

struct HostColumn {
  DeviceColumn meta;         // the stored form; meta.dev.data is null (no device values)
  gpu::PinnedBuffer values;  // rows * meta.dev.width stored values
  const char* at(uint64_t row) const { return values.get<char>() + row * uint64_t(meta.dev.width); }
};

class HostColumnCache {
 public:
  static HostColumnCache& instance();
  // The pinned copy of `c`, read (or narrowed) on first use; its dictionary, if any,
  // is uploaded on `stream`.
  const HostColumn& get(const ColumnPtr& c, cudaStream_t stream);
  bool holds(const Column* c);
  void clear();  // frees the pinned memory and the dictionaries

 private:
  std::mutex mutex_;
  std::unordered_map<const Column*, std::unique_ptr<HostColumn>> columns_;
};

}  // namespace raydb::exec::cuda
