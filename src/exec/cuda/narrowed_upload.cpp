#include "exec/cuda/narrowed_upload.h"

#include <algorithm>
#include <cstring>

#include "common/stage_times.h"
#include "gpu/cuda_check.h"
#include "storage/persist/narrowed_reader.h"

namespace raydb::exec::cuda {

namespace {

// Two events (one per staging buffer) and, on any exit, a wait for the copies still
// in flight, so neither a staging buffer nor the destination is reused under a DMA.
struct Pipeline {
  cudaStream_t stream;
  cudaEvent_t done[2] = {nullptr, nullptr};
  explicit Pipeline(cudaStream_t s) : stream(s) {
    for (auto& e : done) gpu::check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  }
  ~Pipeline() {
    cudaStreamSynchronize(stream);
    for (auto& e : done) cudaEventDestroy(e);
  }
};

}  // namespace

void upload_narrowed(const NarrowedFile& f, void* device_dst, std::vector<int64_t>& decode,
                     gpu::PinnedBuffer (&staging)[2], cudaStream_t stream, uint64_t chunk_bytes) {
  {
    // Pinning costs about 0.5 ms per MiB (session 13: 51-75 ms for two 64 MiB buffers
    // in every one-shot run); a 16 MiB chunk is still 0.3 ms of copying at 52 GB/s.
    // The default (16 MiB) is not measured on the device yet; 64M is session 13's.
    StageScope pin(Stage::kPinnedStaging);
    for (auto& b : staging) b.ensure(chunk_bytes);
  }
  persist::NarrowedReader reader(f);
  decode.assign(f.distinct, 0);
  const uint64_t values = f.value_bytes();
  Pipeline p(stream);
  for (uint64_t chunk = 0; reader.remaining() > 0; chunk++) {
    gpu::PinnedBuffer& buf = staging[chunk & 1];
    {
      StageScope wait(Stage::kHostToDevice);  // the copy two chunks back, not hidden by reading
      gpu::check_cuda(cudaEventSynchronize(p.done[chunk & 1]), "column upload");
    }
    const uint64_t at = reader.offset();
    uint64_t n;
    {
      StageScope read(Stage::kReadVerify);  // pread + checksum of this chunk
      n = reader.read(buf.get(), chunk_bytes);
    }
    StageTimes::instance().add_bytes(ByteCount::kColumnFileRead, n);
    const char* src = buf.get<char>();
    if (at < values)
      gpu::check_cuda(cudaMemcpyAsync(static_cast<char*>(device_dst) + at, src, std::min(n, values - at),
                                      cudaMemcpyHostToDevice, stream),
                      "column upload");
    if (at + n > values) {  // the decode values at the file's end
      const uint64_t from = std::max(at, values);
      std::memcpy(reinterpret_cast<char*>(decode.data()) + (from - values), src + (from - at), at + n - from);
    }
    gpu::check_cuda(cudaEventRecord(p.done[chunk & 1], stream), "event");
  }
  {
    StageScope wait(Stage::kHostToDevice);
    gpu::check_cuda(cudaStreamSynchronize(stream), "column upload");
  }
  StageTimes::instance().add_bytes(ByteCount::kToDevice, values);
  reader.verify();
}

}  // namespace raydb::exec::cuda
