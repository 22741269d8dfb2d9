#pragma once
// Host buffers copied into one allocation of device memory, for results handed to other
// libraries through the Arrow C Device Data Interface (api/arrow_device_export.cpp).
// The memory comes from plain cudaMalloc, not the query memory pool: the consumer owns
// it for as long as it likes, and a pooled block could be handed to the next query
// while the consumer's own stream still reads it (cudaFree waits for the device).
// Declared in every build; without CUDA, copy_to_device throws.
#include <cstdint>
#include <memory>
#include <vector>

namespace raydb::exec::cuda {

struct HostRange {
  const void* data = nullptr;
  uint64_t bytes = 0;
};

class DeviceCopies {
 public:
  virtual ~DeviceCopies() = default;
  // Where range i lives on the device (64-byte aligned; an empty range gets a valid,
  // distinct pointer too).
  virtual const void* device_pointer(size_t i) const = 0;
  virtual int device_id() const = 0;
  // A cudaEvent_t* recorded after the copies; wait on it before reading.
  virtual void* sync_event() = 0;
};

// Copies `ranges` to device 0, asynchronously on a stream of its own; the host ranges
// must stay alive until the event has completed. Error(kInvalidInput) without a device,
// Error(kOutOfMemory) when the device memory runs out.
std::unique_ptr<DeviceCopies> copy_to_device(const std::vector<HostRange>& ranges);

}  // namespace raydb::exec::cuda
