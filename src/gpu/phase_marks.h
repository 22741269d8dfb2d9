#pragma once
// Named marks on a stream for cuda_profile: each mark records an event and the host
// time, so one line shows, per phase, the device time and the host time the phase took
// to enqueue (host time far above device time points at host work, not kernels).
// Off (no events created, no output) unless enabled.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "common/timer.h"
#include "gpu/event.h"

namespace raydb::gpu {

class PhaseMarks {
 public:
  PhaseMarks(bool enabled, cudaStream_t s);
  bool enabled() const { return enabled_; }
  // Closes the phase begun at the previous mark (or at construction) under `name`.
  void mark(std::string name);
  // "name device/host ms, ..." for every phase; the stream must be done past the last
  // mark (the caller synchronized). Empty when disabled.
  std::string text() const;

 private:
  bool enabled_;
  cudaStream_t s_;
  Timer host_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<Event>> events_;  // events_[0]: the start
  std::vector<double> host_ms_;                 // host time at each mark, from the start
};

}  // namespace raydb::gpu
