#include "gpu/stream_wait.h"

#include <chrono>
#include <thread>

#include "common/cancel.h"

namespace raydb::gpu {

void wait_cancellable(cudaStream_t s, const char* what) {
  const std::atomic<bool>* flag = current_cancel_flag();
  if (!flag) {
    check_cuda(cudaStreamSynchronize(s), what);
    return;
  }
  // Spin (yielding) for the short waits of small queries, then sleep briefly: a query
  // waiting on long kernels should not keep a core busy, and 20 us is far below what
  // a person cancelling notices.
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const cudaError_t e = cudaStreamQuery(s);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) check_cuda(e, what);
    if (cancel_requested(flag)) {
      check_cuda(cudaStreamSynchronize(s), what);
      throw_if_cancelled(flag);
    }
    if (std::chrono::steady_clock::now() - start < std::chrono::microseconds(200))
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  // A cancel that came while the work ran: the statement stops here, before its
  // results are read back and finished on the host.
  throw_if_cancelled(flag);
}

}  // namespace raydb::gpu
