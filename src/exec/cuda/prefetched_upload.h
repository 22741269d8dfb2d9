#pragma once
// A read-ahead narrowed file (storage/persist/narrowed_prefetch.h) copied to the
// device by several threads, each with its own stream and two pinned buffers of the
// staging ring (staging_ring.h): a thread takes the next chunk, waits until it has
// been read, copies it into a free pinned buffer and queues its DMA, so neither the
// host-side copy nor one stream limits the rate. The file's checksum verdict is
// awaited before anything is returned: a corrupted file throws the chunked reader's
// one-line kCatalog error and the caller discards the device copy.
#include <cstdint>
#include <vector>

#include "exec/cuda/staging_ring.h"
#include "storage/persist/narrowed_prefetch.h"

namespace raydb::exec::cuda {

// Copies the stored values of `p`'s file to `device_dst` (value_bytes()) and its
// decode values into `decode`, through `streams` slots of `ring` with `buffer_bytes`
// buffers. Returns with the copies complete. --timing on the calling thread: upload,
// with prefetch_wait for the chunks not read yet and the verdict.
void upload_prefetched(const persist::NarrowedPrefetch& p, void* device_dst, std::vector<int64_t>& decode,
                       StagingRing& ring, int streams, uint64_t buffer_bytes);

}  // namespace raydb::exec::cuda
