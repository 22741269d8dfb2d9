// Device-wide primitives of the general path (CUB): flagged selection, stable radix
// sorts of (key, payload) pairs, prefix sums. Temporary storage comes from the
// accounted pool, so running out of device memory is Error(kOutOfMemory).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "gpu/device_buffer.h"
#include "exec/cuda/general/general_kernels.h"

namespace raydb::exec::cuda::general {

namespace {

// CUB takes int item counts in these entry points; the executor keeps row counts
// below 2^31 per call (checked where tuples are produced).
int items(uint64_t n) { return int(n); }

template <typename F>
void with_temp(F&& call, cudaStream_t s) {
  size_t bytes = 0;
  gpu::check_cuda(call(nullptr, bytes), "cub (size query)");
  gpu::DeviceBuffer temp(std::max<size_t>(bytes, 16), "sort/scan scratch");
  gpu::check_cuda(call(temp.get(), bytes), "cub");
  (void)s;
}

uint64_t read_back(const void* dev, size_t width, cudaStream_t s) {
  uint64_t v = 0;
  gpu::check_cuda(cudaMemcpyAsync(&v, dev, width, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "count");
  return v;
}

}  // namespace

uint64_t select_flagged(const uint8_t* flags, uint64_t n, uint32_t* out, cudaStream_t s) {
  if (n == 0) return 0;
  gpu::DeviceBuffer count(8, "selection count");
  thrust::counting_iterator<uint32_t> it(0);
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, it, flags, out, count.get<int>(), items(n), s);
  }, s);
  return read_back(count.get(), sizeof(int), s);
}

namespace {
struct IsPresent {
  uint32_t absent;
  __host__ __device__ bool operator()(uint32_t v) const { return v != absent; }
};
}  // namespace

uint64_t select_present(const uint32_t* values, uint32_t absent, uint64_t n, uint32_t* out, cudaStream_t s) {
  if (n == 0) return 0;
  gpu::DeviceBuffer count(8, "selection count");
  thrust::counting_iterator<uint32_t> it(0);
  const auto flags = thrust::make_transform_iterator(values, IsPresent{absent});
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, it, flags, out, count.get<int>(), items(n), s);
  }, s);
  return read_back(count.get(), sizeof(int), s);
}

void sort_pairs_u64(const unsigned long long* keys_in, unsigned long long* keys_out, const uint32_t* vals_in,
                    uint32_t* vals_out, uint64_t n, cudaStream_t s) {
  if (n == 0) return;
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, vals_in, vals_out, items(n), 0, 64, s);
  }, s);
}

void sort_pairs_i64(const long long* keys_in, long long* keys_out, const uint32_t* vals_in, uint32_t* vals_out,
                    uint64_t n, cudaStream_t s) {
  if (n == 0) return;
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, vals_in, vals_out, items(n), 0, 64, s);
  }, s);
}

void sort_pairs_u8(const uint8_t* keys_in, uint8_t* keys_out, const uint32_t* vals_in, uint32_t* vals_out, uint64_t n,
                   cudaStream_t s) {
  if (n == 0) return;
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, vals_in, vals_out, items(n), 0, 8, s);
  }, s);
}

void sort_pairs_u32_i64(const uint32_t* keys_in, uint32_t* keys_out, const long long* vals_in, long long* vals_out,
                        uint64_t n, cudaStream_t s) {
  if (n == 0) return;
  with_temp([&](void* t, size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, vals_in, vals_out, items(n), 0, 32, s);
  }, s);
}

uint64_t exclusive_sum_u64(const unsigned long long* in, unsigned long long* out, uint64_t n, cudaStream_t s) {
  if (n == 0) return 0;
  with_temp([&](void* t, size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, items(n), s); }, s);
  return read_back(out + n - 1, 8, s) + read_back(in + n - 1, 8, s);
}

uint64_t inclusive_sum_u32(const uint32_t* in, uint32_t* out, uint64_t n, cudaStream_t s) {
  if (n == 0) return 0;
  with_temp([&](void* t, size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, in, out, items(n), s); }, s);
  return read_back(out + n - 1, 4, s);
}

}  // namespace raydb::exec::cuda::general
