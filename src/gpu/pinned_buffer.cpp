#include "gpu/pinned_buffer.h"

#include "gpu/cuda_check.h"

namespace raydb::gpu {

PinnedBuffer::PinnedBuffer(uint64_t bytes) { ensure(bytes); }

PinnedBuffer::~PinnedBuffer() {
  if (p_) cudaFreeHost(p_);
}

void PinnedBuffer::release() {
  if (p_) cudaFreeHost(p_);
  p_ = nullptr;
  bytes_ = 0;
}

void PinnedBuffer::ensure(uint64_t bytes) {
  if (bytes <= bytes_) return;
  if (p_) cudaFreeHost(p_);
  p_ = nullptr;
  bytes_ = 0;
  check_cuda(cudaMallocHost(&p_, bytes), "cudaMallocHost (pinned staging buffer)");
  bytes_ = bytes;
}

}  // namespace raydb::gpu
