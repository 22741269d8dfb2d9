// Device work of the GPU-resident indexes (see gpu_ops.h). CUB for sorts, selections,
// reductions and scans; small kernels for the rest. Temporary storage comes from the
// stream-ordered pool (cudaMallocAsync), so repeated builds and batches do not pay for
// cudaMalloc; everything runs on the legacy default stream and synchronizes before
// returning, so callers (and the OptiX tracer's own stream) see finished results.
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <stdexcept>
#include <string>

#include "access/gpu/gpu_ops.h"
#include "access/gpu/index_errors.h"
#include "common/error.h"
#include "common/hash_mix.h"
#include "gpu/event.h"
#include "gpu/launch.cuh"
#include "gpu/stream_scratch.h"

namespace raydb::access::gpu {
namespace mp = rt::mapping;

void check(const char* what) { raydb::gpu::check_cuda(cudaGetLastError(), what, kIndexKernelErrors); }

namespace {

// Launches: one thread per item (the kernels below test i < n).
using raydb::gpu::item_blocks;
using raydb::gpu::kThreads;

// Scratch in stream order, failing as "GPU index: out of GPU memory ...".
struct Temp : raydb::gpu::StreamScratch {
  explicit Temp(size_t bytes) : StreamScratch(bytes, "GPU index") {}
};

void sync(const char* what) {
  check(what);
  if (cudaStreamSynchronize(0) != cudaSuccess) check(what);
}

__global__ void iota_kernel(uint32_t* out, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<uint32_t>(i);
}

__global__ void gather_kernel(const int64_t* src, const uint32_t* idx, int64_t* dst, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) dst[i] = src[idx[i]];
}

__global__ void head_count_kernel(const uint64_t* k, size_t n, unsigned long long* total) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const int head = i < n && (i == 0 || k[i] != k[i - 1]);
  const int block = __syncthreads_count(head);
  if (threadIdx.x == 0 && block > 0) atomicAdd(total, static_cast<unsigned long long>(block));
}

__global__ void head_flags_kernel(const uint64_t* k, size_t n, uint8_t* flags) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) flags[i] = i == 0 || k[i] != k[i - 1];
}

__global__ void set_u32(uint32_t* at, uint32_t v) { *at = v; }

__global__ void bucket_count_kernel(const uint64_t* unit_keys, uint32_t units, uint32_t B, uint32_t buckets,
                                    uint32_t* counts) {
  const size_t b = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (b >= buckets) return;
  mp::BucketTable t{unit_keys, nullptr, units, B, buckets, 0, nullptr};
  rt::Aabb boxes[mp::kMaxIntervalBoxes];
  counts[b] = static_cast<uint32_t>(
      mp::interval_boxes(mp::bucket_first(t, static_cast<uint32_t>(b)), t.last(static_cast<uint32_t>(b)), boxes));
}

__global__ void bucket_write_kernel(const uint64_t* unit_keys, uint32_t units, uint32_t B, uint32_t buckets,
                                    const uint32_t* offsets, rt::Aabb* out, uint32_t* prim_bucket) {
  const size_t b = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (b >= buckets) return;
  mp::BucketTable t{unit_keys, nullptr, units, B, buckets, 0, nullptr};
  rt::Aabb boxes[mp::kMaxIntervalBoxes];
  const int c =
      mp::interval_boxes(mp::bucket_first(t, static_cast<uint32_t>(b)), t.last(static_cast<uint32_t>(b)), boxes);
  const uint32_t o = offsets[b];
  for (int k = 0; k < c; ++k) {
    out[o + k] = boxes[k];
    prim_bucket[o + k] = static_cast<uint32_t>(b);
  }
}

__global__ void bucket_last_kernel(const uint64_t* unit_keys, uint32_t units, uint32_t B, uint32_t buckets,
                                   uint64_t* out) {
  const size_t b = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (b >= buckets) return;
  const uint64_t end = (b + 1) * B;
  out[b] = unit_keys[(end < units ? end : units) - 1];
}

__global__ void lows_kernel(const uint64_t* bounds, uint32_t n, uint64_t* lows) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) lows[i] = bounds[2 * i];
}

__global__ void sa_kernel(mp::BucketLookupParams P) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= P.n) return;
  const uint32_t i = mp::lookup_of(P, j);
  mp::KeyRun run{0, 0};
  if (P.mode == mp::LookupMode::kWrite && P.runs != nullptr) {
    run = P.runs[i];
  } else {
    const uint64_t lo = P.bounds[2 * static_cast<uint64_t>(i)], hi = P.bounds[2 * static_cast<uint64_t>(i) + 1];
    if (lo <= hi) run = mp::units_run(P, mp::lower_bound_units(P.t.unit_keys, 0, P.t.units, lo), lo, hi);
  }
  mp::emit_run(P, i, run);
}

__global__ void hash_clear_kernel(HashSlot* slots, uint64_t capacity) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < capacity) slots[i] = HashSlot{0, kEmptySlot, 0};
}

// Units are distinct, so an inserter never compares keys: it claims the first free
// slot of its probe sequence (CAS on the unit word) and then writes the key.
__global__ void hash_insert_kernel(const uint64_t* unit_keys, uint32_t units, HashSlot* slots, uint64_t mask) {
  const size_t u = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (u >= units) return;
  const uint64_t k = unit_keys[u];
  for (uint64_t s = fmix64(k) & mask;; s = (s + 1) & mask) {
    if (atomicCAS(&slots[s].unit, kEmptySlot, static_cast<uint32_t>(u)) == kEmptySlot) {
      slots[s].key = k;
      return;
    }
  }
}

__global__ void hash_kernel(const HashSlot* slots, uint64_t mask, mp::BucketLookupParams P) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= P.n) return;
  const uint32_t i = mp::lookup_of(P, j);
  mp::KeyRun run{0, 0};
  if (P.mode == mp::LookupMode::kWrite && P.runs != nullptr) {
    run = P.runs[i];
  } else {
    const uint64_t lo = P.bounds[2 * static_cast<uint64_t>(i)], hi = P.bounds[2 * static_cast<uint64_t>(i) + 1];
    if (lo == hi) {
      for (uint64_t s = fmix64(lo) & mask;; s = (s + 1) & mask) {
        const HashSlot slot = slots[s];
        if (slot.unit == kEmptySlot) break;
        if (slot.key == lo) {
          run = mp::KeyRun{P.start(slot.unit), P.start(slot.unit + 1)};
          break;
        }
      }
    } else if (lo < hi) {
      mp::report_error(P.error, mp::kErrorBadHit);  // ranges are not supported
    }
  }
  mp::emit_run(P, i, run);
}

template <typename K>
float timed(K&& launch, const char* what) {
  const raydb::gpu::Event a(kIndexCallErrors), b(kIndexCallErrors);
  cudaEventRecord(a, 0);
  launch();
  cudaEventRecord(b, 0);
  sync(what);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

}  // namespace

uint64_t max_key(const uint64_t* keys, size_t n) {
  if (n == 0) return 0;
  Temp out(sizeof(uint64_t));
  size_t bytes = 0;
  cub::DeviceReduce::Max(nullptr, bytes, keys, out.as<uint64_t>(), static_cast<int64_t>(n));
  Temp tmp(bytes);
  cub::DeviceReduce::Max(tmp.as<void>(), bytes, keys, out.as<uint64_t>(), static_cast<int64_t>(n));
  uint64_t m = 0;
  cudaMemcpy(&m, out.as<uint64_t>(), sizeof(m), cudaMemcpyDeviceToHost);
  sync("max key");
  return m;
}

int key_bits(uint64_t max) {
  int b = 0;
  while (b < 64 && (max >> b) != 0) ++b;
  return b == 0 ? 1 : b;
}

void sort_with_index(const uint64_t* keys, size_t n, uint64_t* sorted_keys, uint32_t* perm) {
  if (n == 0) return;
  const int bits = key_bits(max_key(keys, n));
  Temp idx(n * sizeof(uint32_t));
  iota_kernel<<<item_blocks(n), kThreads>>>(idx.as<uint32_t>(), n);
  size_t bytes = 0;
  // LSD radix sort is stable, so ties keep index order.
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, idx.as<uint32_t>(), perm, static_cast<int64_t>(n),
                                  0, bits);
  Temp tmp(bytes);
  cub::DeviceRadixSort::SortPairs(tmp.as<void>(), bytes, keys, sorted_keys, idx.as<uint32_t>(), perm,
                                  static_cast<int64_t>(n), 0, bits);
  sync("radix sort");
}

void gather_i64(const int64_t* src, const uint32_t* idx, int64_t* dst, size_t n) {
  if (n == 0) return;
  gather_kernel<<<item_blocks(n), kThreads>>>(src, idx, dst, n);
  sync("gather");
}

size_t count_distinct(const uint64_t* sorted, size_t n) {
  if (n == 0) return 0;
  Temp total(sizeof(unsigned long long));
  cudaMemsetAsync(total.as<void>(), 0, sizeof(unsigned long long), 0);
  head_count_kernel<<<item_blocks(n), kThreads>>>(sorted, n, total.as<unsigned long long>());
  unsigned long long t = 0;
  cudaMemcpy(&t, total.as<void>(), sizeof(t), cudaMemcpyDeviceToHost);
  sync("count distinct");
  return static_cast<size_t>(t);
}

void compress_units(const uint64_t* sorted, size_t n, uint64_t* unit_keys, uint32_t* unit_starts, size_t units) {
  if (n == 0) return;
  Temp flags(n);
  Temp selected(sizeof(int64_t));
  head_flags_kernel<<<item_blocks(n), kThreads>>>(sorted, n, flags.as<uint8_t>());
  size_t b1 = 0, b2 = 0;
  thrust::counting_iterator<uint32_t> positions(0);
  cub::DeviceSelect::Flagged(nullptr, b1, sorted, flags.as<uint8_t>(), unit_keys, selected.as<int64_t>(),
                             static_cast<int64_t>(n));
  cub::DeviceSelect::Flagged(nullptr, b2, positions, flags.as<uint8_t>(), unit_starts, selected.as<int64_t>(),
                             static_cast<int64_t>(n));
  Temp tmp(b1 > b2 ? b1 : b2);
  cub::DeviceSelect::Flagged(tmp.as<void>(), b1, sorted, flags.as<uint8_t>(), unit_keys, selected.as<int64_t>(),
                             static_cast<int64_t>(n));
  cub::DeviceSelect::Flagged(tmp.as<void>(), b2, positions, flags.as<uint8_t>(), unit_starts, selected.as<int64_t>(),
                             static_cast<int64_t>(n));
  set_u32<<<1, 1>>>(unit_starts + units, static_cast<uint32_t>(n));
  sync("compress units");
}

uint32_t bucket_box_offsets(const uint64_t* unit_keys, uint32_t units, uint32_t bucket_size, uint32_t* offsets) {
  const uint32_t buckets = static_cast<uint32_t>((static_cast<uint64_t>(units) + bucket_size - 1) / bucket_size);
  if (buckets == 0) return 0;
  Temp counts(buckets * sizeof(uint32_t));
  bucket_count_kernel<<<item_blocks(buckets), kThreads>>>(unit_keys, units, bucket_size, buckets, counts.as<uint32_t>());
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts.as<uint32_t>(), offsets, static_cast<int64_t>(buckets));
  Temp tmp(bytes);
  cub::DeviceScan::ExclusiveSum(tmp.as<void>(), bytes, counts.as<uint32_t>(), offsets, static_cast<int64_t>(buckets));
  uint32_t last_offset = 0, last_count = 0;
  cudaMemcpy(&last_offset, offsets + buckets - 1, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&last_count, counts.as<uint32_t>() + buckets - 1, 4, cudaMemcpyDeviceToHost);
  sync("bucket boxes");
  return last_offset + last_count;
}

void write_bucket_boxes(const uint64_t* unit_keys, uint32_t units, uint32_t bucket_size, const uint32_t* offsets,
                        rt::Aabb* boxes, uint32_t* prim_bucket) {
  const uint32_t buckets = static_cast<uint32_t>((static_cast<uint64_t>(units) + bucket_size - 1) / bucket_size);
  if (buckets == 0) return;
  bucket_write_kernel<<<item_blocks(buckets), kThreads>>>(unit_keys, units, bucket_size, buckets, offsets, boxes, prim_bucket);
  sync("bucket boxes");
}

void bucket_lasts(const uint64_t* unit_keys, uint32_t units, uint32_t bucket_size, uint64_t* out) {
  const uint32_t buckets = static_cast<uint32_t>((static_cast<uint64_t>(units) + bucket_size - 1) / bucket_size);
  if (buckets == 0) return;
  bucket_last_kernel<<<item_blocks(buckets), kThreads>>>(unit_keys, units, bucket_size, buckets, out);
  sync("bucket lasts");
}

void probe_order(const uint64_t* bounds, uint32_t n, uint32_t* order) {
  if (n == 0) return;
  Temp lows(n * sizeof(uint64_t)), sorted(n * sizeof(uint64_t));
  lows_kernel<<<item_blocks(n), kThreads>>>(bounds, n, lows.as<uint64_t>());
  sort_with_index(lows.as<uint64_t>(), n, sorted.as<uint64_t>(), order);
}

uint64_t exclusive_sum(const uint64_t* counts, size_t n, uint64_t* offsets) {
  if (n == 0) {
    cudaMemset(offsets, 0, sizeof(uint64_t));
    sync("prefix sum");
    return 0;
  }
  size_t bytes = 0;
  // n + 1 outputs: scanning one more input than exists is not allowed, so the total
  // is added from the last count.
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts, offsets, static_cast<int64_t>(n));
  Temp tmp(bytes);
  cub::DeviceScan::ExclusiveSum(tmp.as<void>(), bytes, counts, offsets, static_cast<int64_t>(n));
  uint64_t last_offset = 0, last_count = 0;
  cudaMemcpy(&last_offset, offsets + n - 1, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&last_count, counts + n - 1, 8, cudaMemcpyDeviceToHost);
  const uint64_t total = last_offset + last_count;
  cudaMemcpy(offsets + n, &total, 8, cudaMemcpyHostToDevice);
  sync("prefix sum");
  return total;
}

float sorted_array_lookup(const mp::BucketLookupParams& p) {
  if (p.n == 0) return 0;
  return timed([&] { sa_kernel<<<item_blocks(p.n), kThreads>>>(p); }, "sorted array lookup");
}

void hash_build(const uint64_t* unit_keys, uint32_t units, HashSlot* slots, uint64_t capacity) {
  hash_clear_kernel<<<item_blocks(capacity), kThreads>>>(slots, capacity);
  if (units > 0) hash_insert_kernel<<<item_blocks(units), kThreads>>>(unit_keys, units, slots, capacity - 1);
  sync("hash build");
}

float hash_lookup(const HashSlot* slots, uint64_t capacity, const mp::BucketLookupParams& p) {
  if (p.n == 0) return 0;
  return timed([&] { hash_kernel<<<item_blocks(p.n), kThreads>>>(slots, capacity - 1, p); }, "hash lookup");
}

}  // namespace raydb::access::gpu
