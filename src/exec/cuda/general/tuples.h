#pragma once
// What the general path's operators pass along: joined rows as one row-id vector per
// bound table (Tuples), and the values of one program over them (Column128).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/device_buffer.h"

namespace raydb::exec::cuda::general {

// CUB's device-wide calls in device_primitives.cu take int item counts.
constexpr uint64_t kMaxRows = (uint64_t(1) << 31) - 1;

// Copies go on the query's stream: a pooled block may still be read by kernels queued
// there before it was released. Pageable sources are staged before the call returns.
template <typename T>
void upload(gpu::DeviceBuffer& dst, const std::vector<T>& src, const char* what, cudaStream_t s) {
  dst = gpu::DeviceBuffer(std::max<uint64_t>(src.size() * sizeof(T), 16), what);
  if (!src.empty())
    gpu::check_cuda(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, s), "upload");
}

// Joined rows: per bound table, the row id of each of the n rows.
struct Tuples {
  uint64_t n = 0;
  std::vector<gpu::DeviceBuffer> rows;
  gpu::DeviceBuffer ptrs;  // device array of nt row pointers (nullptr where unbound)
  void publish(cudaStream_t s) {
    std::vector<const uint32_t*> p(rows.size(), nullptr);
    for (size_t t = 0; t < rows.size(); t++) p[t] = rows[t].bytes() ? rows[t].get<uint32_t>() : nullptr;
    upload(ptrs, p, "row pointers", s);
  }
  const uint32_t* const* dev() const { return ptrs.get<const uint32_t* const>(); }
};

// Values of one program over some rows.
struct Column128 {
  gpu::DeviceBuffer values, nulls;
  const __int128* v() const { return values.get<const __int128>(); }
  const uint8_t* nl() const { return nulls.get<const uint8_t>(); }
};

}  // namespace raydb::exec::cuda::general
