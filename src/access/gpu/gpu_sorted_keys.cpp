#include "access/gpu/gpu_sorted_keys.h"

#include "access/gpu/gpu_ops.h"
#include "common/timer.h"

namespace raydb::access::gpu {

void GpuSortedKeys::build(std::span<const uint64_t> keys, std::span<const int64_t> values, IndexStats& stats) {
  if (keys.size() >= (uint64_t{1} << 32))
    fail(ErrorKind::kInvalidInput, "GPU index: at most 2^32 - 1 rows (got {})", keys.size());
  if (!values.empty() && values.size() != keys.size())
    fail(ErrorKind::kInvalidInput, "GPU index: {} values for {} keys", values.size(), keys.size());
  n_ = keys.size();
  Timer upload;
  DeviceArray<uint64_t> in_keys;
  DeviceArray<int64_t> in_values;
  for (auto* a : {&keys_, &unit_keys_}) a->use(*memory_);
  for (auto* a : {&rows_, &unit_starts_}) a->use(*memory_);
  in_keys.use(*memory_);
  in_values.use(*memory_);
  values_.use(*memory_);
  in_keys.upload(keys, kIndexCallErrors);
  in_values.upload(values, kIndexCallErrors);
  raydb::gpu::check_cuda(cudaDeviceSynchronize(), "upload", kIndexCallErrors);
  stats.upload_ms = upload.elapsed_ms();

  Timer build;
  keys_.allocate(n_);
  rows_.allocate(n_);
  sort_with_index(in_keys.data(), n_, keys_.data(), rows_.data());
  in_keys.reset();
  if (!values.empty()) {
    values_.allocate(n_);
    gather_i64(in_values.data(), rows_.data(), values_.data(), n_);
    in_values.reset();
  }
  units_ = count_distinct(keys_.data(), n_);
  if (units_ < n_) {
    unit_keys_.allocate(units_);
    unit_starts_.allocate(units_ + 1);
    compress_units(keys_.data(), n_, unit_keys_.data(), unit_starts_.data(), units_);
  }
  stats.build_ms = build.elapsed_ms();
}

}  // namespace raydb::access::gpu
