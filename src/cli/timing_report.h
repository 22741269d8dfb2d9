#pragma once
// `raydb query --timing`: the end-to-end breakdown of each statement on stderr, from
// the stages the layers recorded (common/stage_times.h).
#include <string>

namespace raydb::cli {

class TimingReport {
 public:
  // Starts the first segment at the process's start; the start-up stage ends now.
  TimingReport();
  // Prints the stages since the last report (the first: since process start) with
  // their sum, the total wall time and the bytes, then starts a new segment.
  // `device_ms` (CUDA-event time of the kernels, part of the execute stage; < 0: none)
  // is printed on a line of its own.
  void print(double elapsed_ms, const std::string& backend, double device_ms);

 private:
  double segment_start_ms_;
};

}  // namespace raydb::cli
