#pragma once
// The CUDA driver's start-up and device 0's primary context (about 220 ms on the H100
// machine, session 10) made on a background thread while the process opens the
// database, parses and plans, so a one-shot query that goes to the GPU finds them
// ready instead of waiting for them on the critical path. raydb query and shell start
// it when the backend may use the GPU (setting device_warmup, on by default).
// Nothing is reported from the thread: the first device call on the query's thread
// makes the same call again (the runtime waits for the context being made, or fails
// with the one-line error it always gave), so errors stay where they were.
// Once the context exists the thread goes on to load the fused fact kernels (setting
// warmup_kernels; about 40 ms inside the first launch otherwise) while the query's
// thread, no longer waiting, reads and copies its columns; before the kernels it pins
// the upload buffers a query reading ahead asked for (setting prefetch, staging_ring.h).
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace raydb::exec::cuda {

class DeviceWarmup {
 public:
  static DeviceWarmup& instance();
  void start();          // once per process; later calls do nothing
  void wait();           // until the context is made (returns at once if never started)
  bool running() const;  // started and not finished (kernels may still be loading)
  double ms() const;     // how long making the context took; -1 when not started or not made
  // Stops the kernel loading at its next kernel and waits for the thread; false (and
  // no wait) while the context is still being made.
  bool settle();

 private:
  void run();
  void finish_step(bool* flag);  // sets *flag under the lock and wakes the waiters
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool started_ = false, context_ = false, done_ = false;
  bool kernels_ = true;  // setting warmup_kernels, read on the starting thread
  double ms_ = -1;
  std::atomic<bool> stop_{false};  // settle(): the kernel loading ends at its next kernel
};

}  // namespace raydb::exec::cuda
