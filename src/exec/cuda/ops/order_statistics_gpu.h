#pragma once
// Order statistics on a CUDA device: the same selections as the CPU library
// (exec/core/order_statistics), with the same keys, specs and answers.
//
//   kBitwise  one counting kernel per key bit (per-rank thresholds, per-block counters),
//             then a one-block kernel that sets or leaves the bit: 32 or 64 pairs of
//             launches queued back to back, no host round trip.
//   kRadix    radix_select.h: per pass a histogram kernel (shared-memory histograms
//             per (group, distinct prefix) when they fit, else global atomics) and a
//             digit-choosing kernel on the device; 11-bit digits while the histograms
//             fit, leading bits skipped when the input promises a key range, and the
//             rows still in play copied out once they fit a buffer so that the later
//             passes read only them; no host round trip between passes. More than
//             4096 (group, rank) pairs take the segmented sort instead.
//   kSort     the counting keys compacted and radix-sorted with CUB (grouped: sorted by
//             key, then stably by group: one segment per group), ranks read off.
//
// Before the passes one small copy brings the per-group counts to the host (none when
// every row counts and there are no groups), where the ranks are computed
// (ranks_for_specs) and sent back.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exec/core/order_statistics/order_statistics.h"

namespace raydb::exec::cuda::ops {

// True when this build has CUDA and a device is present; else `why` says why not.
bool order_statistics_gpu_available(std::string* why = nullptr);

struct GpuTimes {
  double upload_ms = 0;  // host -> device copy of the column, masks and group ids
  double count_ms = 0;   // counts per group (and their copy back)
  double select_ms = 0;  // the selection passes and the result copy back
  int radix_passes = 0;        // kRadix with histograms: histogram passes launched
  int radix_plain_passes = 0;  // of them, on the plain (16-byte-load) pass kernel
};

// A host column's copy on the device (values, masks, group ids), freed with it.
class DeviceColumnCopy {
 public:
  DeviceColumnCopy(const orderstat::ColumnInput& host, double* upload_ms = nullptr);
  ~DeviceColumnCopy();
  DeviceColumnCopy(const DeviceColumnCopy&) = delete;
  DeviceColumnCopy& operator=(const DeviceColumnCopy&) = delete;
  // The input with every pointer in device memory.
  const orderstat::ColumnInput& input() const { return device_; }

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
  orderstat::ColumnInput device_;
};

// Device-resident input: every pointer of `in` is device memory. Returns the counting
// rows per group.
std::vector<uint64_t> gpu_count_per_group(const orderstat::ColumnInput& in);
// select_keys (selection.h) on device-resident input; options.threads is ignored and
// options.group_mode picks histograms or segments as on the CPU.
std::vector<uint64_t> gpu_select_keys(const orderstat::ColumnInput& in, const std::vector<uint64_t>& ranks,
                                      uint32_t m, const orderstat::SelectOptions& options, GpuTimes* times = nullptr);
// order_statistics (order_statistics.h) on device-resident input.
orderstat::OrderStats gpu_order_statistics(const orderstat::ColumnInput& in, const std::vector<orderstat::RankSpec>& specs,
                                           const orderstat::SelectOptions& options, GpuTimes* times = nullptr);
// The same from host memory: uploads the column, masks and group ids first.
orderstat::OrderStats gpu_order_statistics_from_host(const orderstat::ColumnInput& host_in,
                                                     const std::vector<orderstat::RankSpec>& specs,
                                                     const orderstat::SelectOptions& options, GpuTimes* times = nullptr);

}  // namespace raydb::exec::cuda::ops
