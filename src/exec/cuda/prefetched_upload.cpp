#include "exec/cuda/prefetched_upload.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>

#include "common/stage_times.h"
#include "gpu/cuda_check.h"

namespace raydb::exec::cuda {

namespace {

// What the copying threads share: the chunk counter and the first failure.
struct Copying {
  Copying(const persist::NarrowedPrefetch& file, void* to, uint64_t chunk_bytes)
      : p(file), dst(static_cast<char*>(to)), values(file.file().value_bytes()), chunk(chunk_bytes),
        chunks((values + chunk - 1) / chunk) {}
  const persist::NarrowedPrefetch& p;
  char* dst;
  uint64_t values, chunk, chunks;
  int device = 0;
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  void keep(std::exception_ptr e) {
    stop.store(true);
    std::lock_guard<std::mutex> g(error_mutex);
    if (!error) error = e;
  }
};

// Thread `t`'s share: chunks from the shared counter through its slot, alternating its
// two buffers; returns once its last DMA finished (also when it fails).
void copy_on_slot(Copying& c, StagingRing::Slot& slot, int t) {
  std::lock_guard<std::mutex> lock(slot.mutex);
  try {
    gpu::check_cuda(cudaSetDevice(c.device), "upload thread");
    slot.ensure(c.chunk);
    int k = 0;
    for (uint64_t i; !c.stop.load() && (i = c.next.fetch_add(1)) < c.chunks; k ^= 1) {
      const uint64_t at = i * c.chunk, len = std::min(c.chunk, c.values - at);
      {
        // The query's own thread (0) records the wait for chunks still being read.
        std::optional<StageScope> wait;
        if (t == 0) wait.emplace(Stage::kPrefetchWait);
        c.p.wait_range(at, at + len);
      }
      gpu::check_cuda(cudaEventSynchronize(slot.done[k]), "column upload");  // the buffer's last DMA
      std::memcpy(slot.buffer[k].get(), c.p.data() + at, len);
      gpu::check_cuda(cudaMemcpyAsync(c.dst + at, slot.buffer[k].get(), len, cudaMemcpyHostToDevice, slot.stream),
                      "column upload");
      gpu::check_cuda(cudaEventRecord(slot.done[k], slot.stream), "event");
    }
  } catch (...) {
    c.keep(std::current_exception());
  }
  // Neither the buffers nor the destination may be reused under a DMA.
  if (slot.stream) {
    const cudaError_t e = cudaStreamSynchronize(slot.stream);
    if (e != cudaSuccess) {
      try {
        gpu::check_cuda(e, "column upload");
      } catch (...) {
        c.keep(std::current_exception());
      }
    }
  }
}

}  // namespace

void upload_prefetched(const persist::NarrowedPrefetch& p, void* device_dst, std::vector<int64_t>& decode,
                       StagingRing& ring, int streams, uint64_t buffer_bytes) {
  StageScope stage(Stage::kUpload);
  const NarrowedFile& f = p.file();
  Copying c(p, device_dst, buffer_bytes);
  gpu::check_cuda(cudaGetDevice(&c.device), "upload");
  const int threads = int(std::clamp<uint64_t>(c.chunks, 1, uint64_t(std::clamp(streams, 1, StagingRing::kMaxSlots))));
  // OpenMP's threads persist between regions, so a column costs no thread start; the
  // calling thread is thread 0.
#pragma omp parallel num_threads(threads)
  copy_on_slot(c, ring.slot(omp_get_thread_num()), omp_get_thread_num());
  if (c.error) std::rethrow_exception(c.error);
  const char* bytes;
  {
    StageScope wait(Stage::kPrefetchWait);  // the checksum verdict: every chunk read and hashed
    bytes = p.verified();
  }
  decode.assign(f.distinct, 0);
  if (f.distinct > 0) std::memcpy(decode.data(), bytes + c.values, f.distinct * 8);
  StageTimes::instance().add_bytes(ByteCount::kToDevice, c.values);
}

}  // namespace raydb::exec::cuda
