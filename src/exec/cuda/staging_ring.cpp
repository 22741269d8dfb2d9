#include "exec/cuda/staging_ring.h"

#include <algorithm>

#include "common/error.h"
#include "common/stage_times.h"
#include "gpu/cuda_check.h"

namespace raydb::exec::cuda {

void StagingRing::Slot::ensure(uint64_t bytes) {
  if (!stream) {
    gpu::check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "upload stream");
    for (auto& e : done) gpu::check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  }
  for (auto& b : buffer) b.ensure(bytes);
}

void StagingRing::Slot::release() {
  for (auto& b : buffer) b.release();
}

StagingRing& StagingRing::instance() {
  static StagingRing* ring = new StagingRing();  // never destroyed: may outlive the CUDA context
  return *ring;
}

StagingRing::StagingRing() {
  for (auto& s : slots_) s = std::make_unique<Slot>();
}

uint64_t StagingRing::buffer_bytes(int streams, uint64_t total) {
  constexpr uint64_t kGrain = uint64_t(64) << 10;
  const uint64_t each = total / uint64_t(2 * std::max(streams, 1));
  return std::max(kGrain, each / kGrain * kGrain);
}

void StagingRing::want(int streams, uint64_t bytes) {
  want_bytes_.store(bytes);
  want_streams_.store(std::clamp(streams, 1, kMaxSlots));
}

double StagingRing::pin_wanted() {
  const int n = want_streams_.load();
  if (n == 0) return 0;
  const uint64_t bytes = want_bytes_.load();
  const double t0 = monotonic_ms();
  try {
    for (int i = 0; i < n; i++) {
      Slot& s = slot(i);
      std::lock_guard<std::mutex> lock(s.mutex);
      s.ensure(bytes);
    }
  } catch (const Error&) {
    // Reported by the upload thread that needs the slot, when it tries again.
  }
  return monotonic_ms() - t0;
}

void StagingRing::release() {
  for (auto& s : slots_) {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->release();
  }
}

}  // namespace raydb::exec::cuda
