#pragma once
// Large copies between pageable host memory and the device at close to the link's
// speed: chunks go through two pinned staging buffers (one chunk's DMA overlaps the
// host copy of the previous one), and the host side of each chunk is copied by several
// threads, so first-touch page faults of a fresh destination are paid in parallel.
// A plain cudaMemcpy from or to pageable memory stages through the driver's own
// buffers on one thread: 800 MB took ~0.1 s each way plus the destination's faults.
// Synchronous: returns with the copy complete. Small copies take cudaMemcpy.
#include <cstddef>

namespace raydb::gpu {

void copy_to_device_staged(void* device_dst, const void* host_src, size_t bytes);
void copy_to_host_staged(void* host_dst, const void* device_src, size_t bytes);
// Frees the pinned staging buffers (pinned again on the next large copy).
void release_staging_buffers();

}  // namespace raydb::gpu
