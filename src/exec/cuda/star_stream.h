#pragma once
// The fact pass of a streamed star query (stream_plan.h): chunks of the fact columns
// copied from pinned host memory (host_column_cache.h) on the copy stream into
// kStreamSlots rotating device buffers, the unchanged fact kernel launched per chunk on
// the compute stream. Events order them: a chunk's kernel waits for its copy, a
// buffer's next copy for the kernel that read it. Every chunk lies inside one range of
// the blocks data skipping kept, so skipped blocks are neither copied nor read, and
// every fact row of the kept ranges is in exactly one chunk.
#include <memory>
#include <string>
#include <vector>

#include "exec/cuda/star_run.h"

namespace raydb::exec::cuda {

struct StreamChunkEvents {
  gpu::Event copy_start, copy_end, kernel_start, kernel_end;
};

// What one streamed pass holds until its results are read: the chunk buffers (alive
// until the kernels that read them have finished) and each chunk's events.
struct StreamRun {
  std::vector<std::vector<gpu::DeviceBuffer>> slots;  // per slot, per fact column (empty: resident)
  gpu::Event ready;  // the compute stream's work before the pass; the first copy waits for it
  std::unique_ptr<StreamChunkEvents[]> events;
  size_t chunks = 0;
  uint64_t bytes = 0;  // copied to the device
};

// Queues the fact pass over r.stream's chunks (r.stream_run keeps what it needs).
void launch_fact_streamed(StarRun& r, const StarParams& p);

// After the stream's work is done: "streamed: ..." for EXPLAIN ANALYZE (bytes copied,
// copy and kernel time, how much of them overlapped, effective GB/s); "" unless streamed.
std::string stream_profile(const StarRun& r);

}  // namespace raydb::exec::cuda
