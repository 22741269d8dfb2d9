#pragma once
// The CUDA driver's start-up and device 0's primary context (about 220 ms on the H100
// machine, session 10) made on a background thread while the process opens the
// database, parses and plans, so a one-shot query that goes to the GPU finds them
// ready instead of waiting for them on the critical path. raydb query and shell start
// it when the backend may use the GPU (setting device_warmup, on by default).
// Nothing is reported from the thread: the first device call on the query's thread
// makes the same call again (the runtime waits for the context being made, or fails
// with the one-line error it always gave), so errors stay where they were.
#include <condition_variable>
#include <mutex>

namespace raydb::exec::cuda {

class DeviceWarmup {
 public:
  static DeviceWarmup& instance();
  void start();          // once per process; later calls do nothing
  void wait();           // until the thread finished (returns at once if never started)
  bool running() const;  // started and not finished
  double ms() const;     // how long the warm-up took; -1 when not started or not finished

 private:
  void run();
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool started_ = false, done_ = false;
  double ms_ = -1;
};

}  // namespace raydb::exec::cuda
