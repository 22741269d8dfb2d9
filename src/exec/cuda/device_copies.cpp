#include "exec/cuda/device_copies.h"

#include <algorithm>

#include "common/error.h"
#include "exec/cuda/cuda_device.h"
#include "gpu/current_device.h"
#include "gpu/device_buffer.h"
#include "gpu/device_memory.h"
#include "gpu/event.h"
#include "gpu/stream.h"

namespace raydb::exec::cuda {

namespace {

constexpr uint64_t kAlign = 64;  // Arrow's recommended buffer alignment

uint64_t aligned(uint64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

gpu::CudaMallocMemory& export_memory() {
  static gpu::CudaMallocMemory memory(gpu::kBackendErrors);
  return memory;
}

class CudaDeviceCopies final : public DeviceCopies {
 public:
  explicit CudaDeviceCopies(const std::vector<HostRange>& ranges) {
    uint64_t total = 0;
    for (const HostRange& r : ranges) {
      offsets_.push_back(total);
      total += aligned(std::max<uint64_t>(r.bytes, 1));
    }
    memory_ = gpu::DeviceBuffer(std::max<uint64_t>(total, kAlign), "Arrow device export", export_memory());
    for (size_t i = 0; i < ranges.size(); i++)
      if (ranges[i].bytes)
        gpu::check_cuda(cudaMemcpyAsync(memory_.get<char>() + offsets_[i], ranges[i].data, ranges[i].bytes,
                                        cudaMemcpyHostToDevice, stream_),
                        "copy of a result to the device");
    gpu::check_cuda(cudaEventRecord(event_, stream_), "cudaEventRecord");
    handle_ = event_.get();
  }

  const void* device_pointer(size_t i) const override { return memory_.get<char>() + offsets_[i]; }
  int device_id() const override { return 0; }
  void* sync_event() override { return &handle_; }

 private:
  gpu::CurrentDevice device_{0};  // first: the stream, event and memory belong to device 0
  gpu::Stream stream_;
  gpu::Event event_;
  cudaEvent_t handle_ = nullptr;  // what sync_event points to
  gpu::DeviceBuffer memory_;      // freed first; cudaFree waits for the copies
  std::vector<uint64_t> offsets_;
};

}  // namespace

std::unique_ptr<DeviceCopies> copy_to_device(const std::vector<HostRange>& ranges) {
  if (device_count() == 0) fail(ErrorKind::kInvalidInput, "no CUDA device: {}", no_device_reason());
  return std::make_unique<CudaDeviceCopies>(ranges);
}

}  // namespace raydb::exec::cuda
