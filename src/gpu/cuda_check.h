#pragma once
// The one CUDA error check. Each layer keeps its own wording of CUDA failures (the
// messages users and tests see did not change when the three checkers became this
// one), so a check takes the wording as a CudaErrorStyle; the CUDA backend's is the
// default.
#include <cuda_runtime.h>

#include "common/error.h"

namespace raydb::gpu {

// How a CUDA failure reads. The messages are fmt patterns with the named fields
// {what} (the caller's name for the call), {error} (cudaGetErrorString) and {mib}
// (the size of a failed allocation).
struct CudaErrorStyle {
  ErrorKind kind;             // of every failure but out-of-memory ones
  const char* message;        // of every failure but out-of-memory ones
  const char* out_of_memory;  // kOutOfMemory with this message; null: like any failure
};

// The CUDA backend's wording: "CUDA <what>: <error>", "CUDA <what>: out of device memory".
extern const CudaErrorStyle kBackendErrors;

// Throws Error in `style` naming `what` when `e` is an error, after clearing CUDA's
// last error so later calls start clean.
void check_cuda(cudaError_t e, const char* what, const CudaErrorStyle& style = kBackendErrors);

// The Error that check_cuda throws (for callers that add a size: mib).
[[noreturn]] void throw_cuda_error(cudaError_t e, const char* what, const CudaErrorStyle& style, double mib = 0);

}  // namespace raydb::gpu
