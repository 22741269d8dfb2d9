// Host side of the GPU order statistics: buffers, launches and the three algorithms
// (order_statistics_gpu.h). Everything runs on the default stream; within one
// selection the passes are queued back to back and the host waits only for the
// result copy.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <limits>

#include "common/error.h"
#include "gpu/cuda_check.h"
#include "gpu/device_buffer.h"
#include "exec/cuda/ops/order_statistics_gpu.h"
#include "exec/cuda/ops/order_statistics_kernels.cuh"
#include "exec/cuda/ops/radix_select.h"
#include "exec/cuda/ops/resident_grid.cuh"

namespace raydb::exec::cuda::ops {

using namespace orderstat;
using raydb::gpu::kThreads;
// Scratch from the gpu/ layer's accounted pool, so order statistics count against the
// device memory budget like every other query buffer.
using DeviceArray = raydb::gpu::DeviceBuffer;
inline unsigned blocks_for(uint64_t n) { return raydb::gpu::grid_blocks(n); }
inline void check(cudaError_t e, const char* what) { raydb::gpu::check_cuda(e, what); }

namespace {

constexpr uint32_t kMaxSharedCounters = 12 * 1024;  // 48 KiB of 32-bit counters per block
constexpr uint64_t kMaxHistogramSlots = 4096;       // beyond: segmented sort

struct Timer {
  cudaEvent_t a, b;
  Timer() {
    check(cudaEventCreate(&a), "event");
    check(cudaEventCreate(&b), "event");
    check(cudaEventRecord(a), "event");
  }
  ~Timer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  double ms() {
    check(cudaEventRecord(b), "event");
    check(cudaEventSynchronize(b), "event");
    float t = 0;
    check(cudaEventElapsedTime(&t, a, b), "event");
    return t;
  }
};

DeviceArray upload(const void* host, uint64_t bytes, const char* what) {
  DeviceArray d(std::max<uint64_t>(bytes, 8), what);
  if (bytes) check(cudaMemcpy(d.get(), host, bytes, cudaMemcpyHostToDevice), what);
  return d;
}
DeviceArray zeros(uint64_t bytes, const char* what) {
  DeviceArray d(std::max<uint64_t>(bytes, 8), what);
  check(cudaMemset(d.get(), 0, std::max<uint64_t>(bytes, 8)), what);
  return d;
}
std::vector<uint64_t> download(const DeviceArray& d, uint64_t count) {
  std::vector<uint64_t> h(count);
  if (count) check(cudaMemcpy(h.data(), d.get(), count * 8, cudaMemcpyDeviceToHost), "result copy");
  return h;
}
void check_launch(const char* what) { check(cudaGetLastError(), what); }

std::vector<uint64_t> bitwise(const ColumnInput& in, const DeviceArray& ranks, uint32_t m, uint32_t slots) {
  DeviceArray x = zeros(uint64_t(slots) * 8, "bitwise answers"), counts = zeros(uint64_t(slots) * 8, "bitwise counts");
  const bool shared = slots <= kMaxSharedCounters;
  for (int bit = key_bits(in.type) - 1; bit >= 0; bit--) {
    const u64 step = u64(1) << bit;
    if (shared)
      bitwise_count_kernel<true><<<resident_grid(bitwise_count_kernel<true>, slots * 4, in.n), kThreads, slots * 4>>>(in, m, ranks.get<u64>(), x.get<u64>(), step,
                                                                         counts.get<u64>());
    else
      bitwise_count_kernel<false><<<resident_grid(bitwise_count_kernel<false>, 0, in.n), kThreads>>>(in, m, ranks.get<u64>(), x.get<u64>(), step,
                                                                  counts.get<u64>());
    bitwise_update_kernel<<<blocks_for(slots), kThreads>>>(slots, ranks.get<u64>(), x.get<u64>(), counts.get<u64>(), step);
  }
  check_launch("bitwise selection");
  return download(x, slots);
}

template <typename F>
void with_temp(F&& call) {
  size_t bytes = 0;
  check(call(nullptr, bytes), "cub (size query)");
  DeviceArray temp(std::max<size_t>(bytes, 16), "order statistics scratch");
  check(call(temp.get(), bytes), "cub");
}

// The counting keys sorted by (group, key); start[g] is group g's first position.
std::vector<uint64_t> sorted_segments(const ColumnInput& in, const DeviceArray& ranks, uint32_t m, uint32_t slots,
                                      const std::vector<uint64_t>& counts) {
  if (in.n >= (uint64_t(1) << 31)) fail(ErrorKind::kNotImplemented, "GPU sort selection of 2^31 rows or more");
  const int items = int(in.n);
  DeviceArray keys(in.n * 8 + 8, "sort keys"), groups(in.n * 4 + 8, "sort groups"), flags(in.n + 8, "sort flags");
  gather_keys_kernel<<<blocks_for(in.n), kThreads>>>(in, keys.get<u64>(), groups.get<uint32_t>(), flags.get<uint8_t>());
  DeviceArray k2(in.n * 8 + 8, "sort keys"), g2(in.n * 4 + 8, "sort groups"), selected(8, "selected");
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, keys.get<u64>(), flags.get<uint8_t>(), k2.get<u64>(), selected.get<int>(), items);
  });
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, groups.get<uint32_t>(), flags.get<uint8_t>(), g2.get<uint32_t>(),
                                      selected.get<int>(), items);
  });
  uint64_t valid = 0;
  for (uint64_t c : counts) valid += c;
  const int nv = int(valid), bits = key_bits(in.type);
  if (in.groups == 1) {
    with_temp([&](void* t, size_t& b) {
      return cub::DeviceRadixSort::SortKeys(t, b, k2.get<u64>(), keys.get<u64>(), nv, 0, bits);
    });
  } else {  // by key, then stably by group: each group a sorted segment
    with_temp([&](void* t, size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, k2.get<u64>(), keys.get<u64>(), g2.get<uint32_t>(),
                                             groups.get<uint32_t>(), nv, 0, bits);
    });
    int gbits = 1;
    while (gbits < 32 && (uint64_t(1) << gbits) < in.groups) gbits++;
    with_temp([&](void* t, size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, groups.get<uint32_t>(), g2.get<uint32_t>(), keys.get<u64>(),
                                             k2.get<u64>(), nv, 0, gbits);
    });
    check(cudaMemcpy(keys.get(), k2.get(), valid * 8, cudaMemcpyDeviceToDevice), "sorted keys");
  }
  std::vector<uint64_t> start(in.groups, 0);
  for (uint32_t g = 1; g < in.groups; g++) start[g] = start[g - 1] + counts[g - 1];
  DeviceArray d_start = upload(start.data(), start.size() * 8, "segment starts"), out(uint64_t(slots) * 8 + 8, "picked");
  pick_sorted_kernel<<<blocks_for(slots), kThreads>>>(slots, m, ranks.get<u64>(), d_start.get<u64>(), keys.get<u64>(),
                                                      out.get<u64>());
  check_launch("sort selection");
  return download(out, slots);
}

}  // namespace

bool order_statistics_gpu_available(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    cudaGetLastError();
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    return false;
  }
  return true;
}

struct DeviceColumnCopy::Buffers {
  DeviceArray values, select, nulls, groups;
};

DeviceColumnCopy::DeviceColumnCopy(const ColumnInput& host, double* upload_ms) : buffers_(new Buffers) {
  Timer t;
  device_ = host;
  buffers_->values = upload(host.values, host.n * uint64_t(value_bytes(host.type)), "column values");
  device_.values = buffers_->values.get();
  if (host.select) device_.select = (buffers_->select = upload(host.select, host.n, "where mask")).get<uint8_t>();
  if (host.nulls) device_.nulls = (buffers_->nulls = upload(host.nulls, host.n, "nulls")).get<uint8_t>();
  if (host.group_ids)
    device_.group_ids = (buffers_->groups = upload(host.group_ids, host.n * 4, "group ids")).get<uint32_t>();
  const double ms = t.ms();
  if (upload_ms) *upload_ms = ms;
}

DeviceColumnCopy::~DeviceColumnCopy() = default;

std::vector<uint64_t> gpu_count_per_group(const ColumnInput& in) {
  if (!in.select && !in.nulls && in.groups == 1) return {in.n};  // every row counts
  DeviceArray counts = zeros(uint64_t(in.groups) * 8, "group counts");
  if (in.n) {
    if (in.groups <= kMaxSharedCounters)
      count_groups_kernel<true><<<resident_grid(count_groups_kernel<true>, in.groups * 4, in.n), kThreads,
                                  in.groups * 4>>>(in, counts.get<u64>());
    else
      count_groups_kernel<false><<<resident_grid(count_groups_kernel<false>, 0, in.n), kThreads>>>(in,
                                                                                            counts.get<u64>());
    check_launch("group counts");
  }
  return download(counts, in.groups);
}

namespace {
std::vector<uint64_t> radix_with_stats(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m,
                                       const SelectOptions& options, GpuTimes* times) {
  RadixStats stats;
  std::vector<uint64_t> out = gpu_radix_select(in, ranks, m, &stats, options.gpu_plain_pass);
  if (times) times->radix_passes = stats.passes, times->radix_plain_passes = stats.plain_passes;
  return out;
}
}  // namespace

std::vector<uint64_t> gpu_select_keys(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m,
                                      const SelectOptions& options, GpuTimes* times) {
  if (ranks.size() != size_t(in.groups) * m)
    fail(ErrorKind::kInternal, "order statistics: {} ranks for {} groups x {}", ranks.size(), in.groups, m);
  const uint32_t slots = uint32_t(ranks.size());
  std::vector<uint64_t> out(slots, 0);
  if (in.n == 0 || std::all_of(ranks.begin(), ranks.end(), [](uint64_t r) { return r == kNoRank; })) return out;
  Timer t;
  DeviceArray d_ranks = upload(ranks.data(), ranks.size() * 8, "ranks");
  const bool segments = options.group_mode == GroupMode::kSegments ||
                        (options.group_mode == GroupMode::kAuto && slots > kMaxHistogramSlots);
  if (options.algorithm == Algorithm::kBitwise)
    out = bitwise(in, d_ranks, m, slots);
  else if (options.algorithm == Algorithm::kRadix && !segments)
    out = radix_with_stats(in, ranks, m, options, times);
  else
    out = sorted_segments(in, d_ranks, m, slots, gpu_count_per_group(in));
  for (size_t s = 0; s < slots; s++)
    if (ranks[s] == kNoRank) out[s] = 0;
  if (times) times->select_ms = t.ms();
  return out;
}

OrderStats gpu_order_statistics(const ColumnInput& in, const std::vector<RankSpec>& specs, const SelectOptions& options,
                                GpuTimes* times) {
  Timer t;
  std::vector<uint64_t> counts = gpu_count_per_group(in);
  if (times) times->count_ms = t.ms();
  std::vector<RankPair> pairs;
  const std::vector<uint64_t> ranks = ranks_for_specs(specs, counts, &pairs);
  const std::vector<uint64_t> keys = gpu_select_keys(in, ranks, uint32_t(2 * specs.size()), options, times);
  return assemble(specs, std::move(counts), pairs, keys);
}

OrderStats gpu_order_statistics_from_host(const ColumnInput& host_in, const std::vector<RankSpec>& specs,
                                          const SelectOptions& options, GpuTimes* times) {
  double upload_ms = 0;
  DeviceColumnCopy copy(host_in, &upload_ms);
  OrderStats r = gpu_order_statistics(copy.input(), specs, options, times);
  if (times) times->upload_ms = upload_ms;
  return r;
}

}  // namespace raydb::exec::cuda::ops
