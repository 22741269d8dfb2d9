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

// Copies the stored values of `f` to `device_dst` (f.value_bytes() bytes) and its
// decode values into `decode`, in chunks of `chunk_bytes` (setting upload_chunk: whole
// checksum blocks; each staging buffer holds one). Returns with the copies complete;
// throws kCatalog when the file's checksum is not the manifest's (the caller discards
// `device_dst`).
void upload_narrowed(const NarrowedFile& f, void* device_dst, std::vector<int64_t>& decode,
                     gpu::PinnedBuffer (&staging)[2], cudaStream_t stream, uint64_t chunk_bytes);

}  // namespace raydb::exec::cuda
