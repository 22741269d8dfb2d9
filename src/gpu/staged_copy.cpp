#include "gpu/staged_copy.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "common/stage_times.h"
#include "gpu/cuda_check.h"
#include "gpu/pinned_buffer.h"

namespace raydb::gpu {

namespace {

constexpr size_t kChunk = size_t(32) << 20;  // per staging buffer
constexpr size_t kSmall = size_t(16) << 20;  // below this a plain cudaMemcpy wins

// Both staging buffers, made on first use and kept (pinning costs milliseconds).
struct Staging {
  std::mutex mutex;
  PinnedBuffer buf[2];
  cudaStream_t stream = nullptr;
  cudaEvent_t done[2] = {nullptr, nullptr};
};

Staging& staging() {
  static Staging* s = [] {
    auto* x = new Staging();  // never destroyed: may outlive the CUDA context at exit
    check_cuda(cudaStreamCreateWithFlags(&x->stream, cudaStreamNonBlocking), "staging stream");
    for (auto& e : x->done) check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "staging event");
    return x;
  }();
  return *s;
}

// dst[0, n) = src[0, n) on several threads.
void parallel_memcpy(char* dst, const char* src, size_t n) {
  const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  const size_t part = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t * part < n; t++)
    pool.emplace_back([=] { std::memcpy(dst + t * part, src + t * part, std::min(part, n - t * part)); });
  std::memcpy(dst, src, std::min(part, n));
  for (auto& th : pool) th.join();
}

}  // namespace

void copy_to_device_staged(void* device_dst, const void* host_src, size_t bytes) {
  StageScope stage(Stage::kHostToDevice);
  StageTimes::instance().add_bytes(ByteCount::kToDevice, bytes);
  if (bytes < kSmall) {
    check_cuda(cudaMemcpy(device_dst, host_src, bytes, cudaMemcpyHostToDevice), "upload");
    return;
  }
  Staging& s = staging();
  std::lock_guard<std::mutex> g(s.mutex);
  for (auto& b : s.buf) b.ensure(kChunk);
  // The destination may have been in use by work on another stream: order after it.
  check_cuda(cudaDeviceSynchronize(), "upload");
  auto* dst = static_cast<char*>(device_dst);
  const auto* src = static_cast<const char*>(host_src);
  for (size_t off = 0, k = 0; off < bytes; off += kChunk, k++) {
    const size_t n = std::min(kChunk, bytes - off);
    PinnedBuffer& b = s.buf[k % 2];
    // The DMA that last read this buffer (two chunks ago) must be done before refilling it.
    check_cuda(cudaEventSynchronize(s.done[k % 2]), "staging");
    parallel_memcpy(b.get<char>(), src + off, n);
    check_cuda(cudaMemcpyAsync(dst + off, b.get(), n, cudaMemcpyHostToDevice, s.stream), "upload");
    check_cuda(cudaEventRecord(s.done[k % 2], s.stream), "staging");
  }
  check_cuda(cudaStreamSynchronize(s.stream), "upload");
}

void copy_to_host_staged(void* host_dst, const void* device_src, size_t bytes) {
  if (bytes < kSmall) {
    check_cuda(cudaMemcpy(host_dst, device_src, bytes, cudaMemcpyDeviceToHost), "download");
    return;
  }
  Staging& s = staging();
  std::lock_guard<std::mutex> g(s.mutex);
  for (auto& b : s.buf) b.ensure(kChunk);
  auto* dst = static_cast<char*>(host_dst);
  const auto* src = static_cast<const char*>(device_src);
  const size_t chunks = (bytes + kChunk - 1) / kChunk;
  auto issue = [&](size_t k) {
    const size_t off = k * kChunk;
    check_cuda(cudaMemcpyAsync(s.buf[k % 2].get(), src + off, std::min(kChunk, bytes - off), cudaMemcpyDeviceToHost,
                               s.stream),
               "download");
    check_cuda(cudaEventRecord(s.done[k % 2], s.stream), "staging");
  };
  // The device may still be writing `device_src` on another stream: order after it.
  check_cuda(cudaDeviceSynchronize(), "download");
  issue(0);
  for (size_t k = 0; k < chunks; k++) {
    check_cuda(cudaEventSynchronize(s.done[k % 2]), "download");
    if (k + 1 < chunks) issue(k + 1);  // into the other buffer, while this one is copied out
    const size_t off = k * kChunk;
    parallel_memcpy(dst + off, s.buf[k % 2].get<char>(), std::min(kChunk, bytes - off));
  }
}

void release_staging_buffers() {
  Staging& s = staging();
  std::lock_guard<std::mutex> g(s.mutex);
  check_cuda(cudaStreamSynchronize(s.stream), "staging");
  for (auto& b : s.buf) b.release();
}

}  // namespace raydb::gpu
