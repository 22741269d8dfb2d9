#pragma once
// The fast load path: a column's narrowed file (storage/narrowed_file.h) read with
// large parallel preads straight into two pinned buffers, chunk by chunk; the copy of
// chunk i to the device runs on `stream` while chunk i+1 is read, and each chunk is
// checksummed as it passes (storage/persist/narrowed_reader.h). No mmap page faults,
// no narrowing pass, no separate verifying read.
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/pinned_buffer.h"
#include "storage/narrowed_file.h"

namespace raydb::exec::cuda {

// Bytes per chunk (a whole number of checksum blocks); each staging buffer holds one.
inline constexpr uint64_t kUploadChunkBytes = uint64_t(64) << 20;

// Copies the stored values of `f` to `device_dst` (f.value_bytes() bytes) and its
// decode values into `decode`. Returns with the copies complete; throws kCatalog when
// the file's checksum is not the manifest's (the caller discards `device_dst`).
void upload_narrowed(const NarrowedFile& f, void* device_dst, std::vector<int64_t>& decode,
                     gpu::PinnedBuffer (&staging)[2], cudaStream_t stream);

}  // namespace raydb::exec::cuda
