#pragma once
// The pinned buffers and streams through which read-ahead columns go to the device
// (setting prefetch): one slot per upload thread, each a non-blocking stream and two
// pinned buffers, so a thread copies the next chunk into one buffer while the other's
// DMA runs. Pinning costs about 0.5 ms per MiB, so the ring is small (setting
// upload_staging, 32 MiB in all by default) and made once per process: on the GPU
// warm-up thread right after the context when a prefetch asked for it (want), else by
// each upload thread for its own slot on first use. Each slot has its own lock, so the
// two never pin one slot twice.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include <cuda_runtime.h>

#include "gpu/pinned_buffer.h"

namespace raydb::exec::cuda {

class StagingRing {
 public:
  static constexpr int kMaxSlots = 64;  // setting upload_streams' maximum

  struct Slot {
    std::mutex mutex;  // held by the thread pinning or using the slot
    cudaStream_t stream = nullptr;
    cudaEvent_t done[2] = {nullptr, nullptr};  // the last copy out of each buffer
    gpu::PinnedBuffer buffer[2];
    // Creates the stream and events and pins both buffers to at least `bytes` (the
    // caller holds `mutex`).
    void ensure(uint64_t bytes);
    void release();  // frees the buffers (the caller holds `mutex`)
  };

  static StagingRing& instance();
  // Bytes per buffer for `streams` slots sharing `total` pinned bytes (two buffers
  // each), rounded down to 64 KiB, at least 64 KiB.
  static uint64_t buffer_bytes(int streams, uint64_t total);
  Slot& slot(int i) { return *slots_[size_t(i)]; }
  // A query will upload read-ahead columns through `streams` slots of `bytes` buffers.
  void want(int streams, uint64_t bytes);
  // On the warm-up thread once the context exists: pins what want() asked for, slot by
  // slot (returns at once when nothing was asked). Returns the milliseconds it took.
  double pin_wanted();
  void release();  // frees every slot's buffers (pinned again on next use)

 private:
  StagingRing();
  std::array<std::unique_ptr<Slot>, kMaxSlots> slots_;
  std::atomic<int> want_streams_{0};
  std::atomic<uint64_t> want_bytes_{0};
};

}  // namespace raydb::exec::cuda
