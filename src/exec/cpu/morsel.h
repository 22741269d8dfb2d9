#pragma once
// The CPU executor's units of work: vectors of kBatch rows, handed to threads in
// morsels of kMorselBatches batches.
#include <omp.h>

#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>

#include "common/cancel.h"

namespace raydb::exec::cpu {

constexpr size_t kBatch = 2048;       // rows per vector batch (fits L1/L2 with a few columns)
constexpr size_t kMorselBatches = 8;  // batches per work unit handed to a thread

// Runs `body(i)` for i in [0, n) on `threads` threads; rethrows the first exception.
// The statement's cancel flag (common/cancel.h) is read on the calling thread and
// polled before every unit, so a cancelled query stops within one morsel per thread.
template <typename F>
void parallel_for(size_t n, int threads, F&& body) {
  const std::atomic<bool>* cancel = current_cancel_flag();
  throw_if_cancelled(cancel);
  std::exception_ptr error;
  std::mutex error_mutex;
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (size_t i = 0; i < n; i++) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      throw_if_cancelled(cancel);
      body(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace raydb::exec::cpu
