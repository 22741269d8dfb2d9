#include "access/gpu/index_errors.h"

namespace raydb::access::gpu {

const raydb::gpu::CudaErrorStyle kIndexCallErrors{ErrorKind::kExecution, "GPU index: {what} failed: {error}", nullptr};
const raydb::gpu::CudaErrorStyle kIndexKernelErrors{ErrorKind::kExecution, "GPU index: {what}: {error}",
                                                    "GPU index: out of GPU memory in {what}"};
const raydb::gpu::CudaErrorStyle kIndexAllocErrors{
    ErrorKind::kExecution, "GPU index: cannot allocate {mib:.1f} MiB of GPU memory ({error})",
    "GPU index: cannot allocate {mib:.1f} MiB of GPU memory ({error})"};

}  // namespace raydb::access::gpu
