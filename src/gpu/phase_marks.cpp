#include "gpu/phase_marks.h"

#include <fmt/format.h>

namespace raydb::gpu {

PhaseMarks::PhaseMarks(bool enabled, cudaStream_t s) : enabled_(enabled), s_(s) {
  if (!enabled_) return;
  events_.push_back(std::make_unique<Event>());
  check_cuda(cudaEventRecord(*events_.back(), s_), "cudaEventRecord");
  host_.reset();
}

void PhaseMarks::mark(std::string name) {
  if (!enabled_) return;
  events_.push_back(std::make_unique<Event>());
  check_cuda(cudaEventRecord(*events_.back(), s_), "cudaEventRecord");
  names_.push_back(std::move(name));
  host_ms_.push_back(host_.elapsed_ms());
}

std::string PhaseMarks::text() const {
  std::string s;
  double prev_host = 0;
  for (size_t i = 0; i < names_.size(); i++) {
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, *events_[i], *events_[i + 1]), "cudaEventElapsedTime");
    s += fmt::format("{}{} {:.3f}/{:.3f}", i ? ", " : "", names_[i], ms, host_ms_[i] - prev_host);
    prev_host = host_ms_[i];
  }
  return s;
}

}  // namespace raydb::gpu
