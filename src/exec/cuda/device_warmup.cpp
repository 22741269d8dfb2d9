#include "exec/cuda/device_warmup.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <thread>

#include "common/settings.h"
#include "common/stage_times.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/kernels.h"
#include "exec/cuda/staging_ring.h"

namespace raydb::exec::cuda {

DeviceWarmup& DeviceWarmup::instance() {
  static DeviceWarmup* w = new DeviceWarmup();  // never destroyed: the thread may outlive main
  return *w;
}

void DeviceWarmup::start() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (started_) return;
    started_ = true;
  }
  kernels_ = Settings().warmup_kernels();
  // Kernels are loaded when first launched, not all at context creation (the default
  // since CUDA 12.2; set for older runtimes). The driver reads it at its start-up, and
  // setenv here, on the main thread before the first CUDA call, races no reader.
  setenv("CUDA_MODULE_LOADING", "LAZY", 0);
  std::thread(&DeviceWarmup::run, this).detach();
}

void DeviceWarmup::run() {
  mute_stages_on_this_thread();  // hidden work; the query's thread records its wait
  const double t0 = monotonic_ms();
  // The device count first (the process's probe, which the backend's availability check
  // then reads without waiting for the driver again), then the primary context.
  bool ready = false;
  if (device_count() > 0) {
    ready = cudaSetDevice(0) == cudaSuccess && cudaFree(nullptr) == cudaSuccess;
    cudaGetLastError();  // this thread's error only; the query's thread sees its own
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ms_ = monotonic_ms() - t0;
  }
  finish_step(&context_);
  // The kernels first: the query's thread needs them as soon as its columns are up,
  // and a launch of a kernel being loaded here waits for it (function-local statics in
  // kernels.cu). Session 18 on an H100 pinned the buffers first: the launch then waited
  // for the kernels on the query's thread (device events 36.7 ms instead of 0.5 for
  // SSB q1.1, one-shot); upload threads pin their own slots meanwhile (staging_ring.h).
  if (ready && kernels_) {
    preload_star_kernels(stop_);
    cudaGetLastError();
  }
  // A query reading its columns ahead asked for pinned upload buffers: the slots no
  // upload thread has pinned yet are pinned here.
  if (ready) {
    if (const double ms = StagingRing::instance().pin_wanted(); ms > 0)
      StageTimes::instance().add_background(Background::kStagingPinned, ms);
  }
  finish_step(&done_);
}

void DeviceWarmup::finish_step(bool* flag) {
  std::lock_guard<std::mutex> lock(mutex_);
  *flag = true;
  done_cv_.notify_all();
}

void DeviceWarmup::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [this] { return !started_ || context_; });
}

bool DeviceWarmup::settle() {
  stop_.store(true);
  std::unique_lock<std::mutex> lock(mutex_);
  if (started_ && !context_) return false;
  done_cv_.wait(lock, [this] { return !started_ || done_; });
  return true;
}

bool DeviceWarmup::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return started_ && !done_;
}

double DeviceWarmup::ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return context_ ? ms_ : -1;
}

void start_device_warmup() { DeviceWarmup::instance().start(); }
void wait_device_warmup() { DeviceWarmup::instance().wait(); }
bool device_warmup_running() { return DeviceWarmup::instance().running(); }
double device_warmup_ms() { return DeviceWarmup::instance().ms(); }
bool settle_device_warmup() { return DeviceWarmup::instance().settle(); }

}  // namespace raydb::exec::cuda
