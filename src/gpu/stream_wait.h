#pragma once
// Waiting for a stream in a way a cancelled statement can leave. cudaStreamSynchronize
// blocks until the queued work is done, so a cancel that arrives while the host waits
// for the last kernels of a statement would only be seen after its results were read
// and returned. wait_cancellable polls the stream and this thread's cancel flag
// (common/cancel.h): on a cancel it still lets the queued work finish (its buffers are
// freed on unwind, so no kernel may still be using them) and then throws
// Error(kCancelled). Without a flag it is cudaStreamSynchronize.
#include "gpu/cuda_check.h"

namespace raydb::gpu {

void wait_cancellable(cudaStream_t s, const char* what);

}  // namespace raydb::gpu
