#pragma once
// The GPU-resident indexes behind one CUDA-free header (the bench, the tests and the
// planner see only KeyIndex): sorted array (sa-gpu), hash table (hash-gpu) and the RT
// index built on the GPU (rt-gpu, interval buckets on the OptiX tracer). Built when the
// CUDA backend is; otherwise (and without a device) available() says why and the
// factories throw.
#include <memory>
#include <span>
#include <string>

#include "access/rt_index/key_index.h"
#include "rt/mapping/key_lookup.h"
#include "rt/tracer.h"

namespace raydb::gpu {
class DeviceMemory;
}  // namespace raydb::gpu

namespace raydb::access {

// The device side of a GPU-resident index, for executors whose lookups and results
// stay on the device (no host round trip of keys or row ids). Every index the
// factories below return implements it (dynamic_cast from KeyIndex).
class GpuResidentIndex {
 public:
  virtual ~GpuResidentIndex() = default;
  // Distinct keys indexed (the sorted column's units).
  virtual uint64_t distinct_keys() const = 0;
  // One count pass over n lookups: lookup i is [bounds[2i], bounds[2i+1]] (normalized
  // keys; lo > hi is empty and finds nothing). Writes count[i] and runs[i], the
  // lookup's rows as positions [begin, end) of the sorted column, whose row ids are
  // device_rows()[begin..end), ascending within a key. All pointers are device memory.
  // `stream` (a cudaStream_t, may be null) is synchronized first, so the caller's
  // queued work that fills `bounds` is complete; returns with the results complete.
  // Throws kNotImplemented for a range lookup into a points-only index.
  virtual void find_runs(const uint64_t* bounds, uint32_t n, uint64_t* count, rt::mapping::KeyRun* runs,
                         void* stream) const = 0;
  // Row id of every sorted position (device memory, size() entries).
  virtual const uint32_t* device_rows() const = 0;
};

struct GpuIndexOptions {
  bool sorted_probes = false;  // sort each batch by lower bound on the device first
  // rt-gpu: units per bucket. 16384 by measurement on the H200 (2^26 keys, 2^27
  // lookups, unsorted points: 1024 / 4096 / 8192 / 16384 -> 39.3 / 36.0 / 33.4 / 30.6 ms;
  // every other workload and the memory also improve up to 16384;
  // docs/benchmarks/rt-index-h200.md, bucket size).
  uint32_t bucket_size = 16384;
  // Where the index takes its device memory from (gpu/device_memory.h; must outlive the
  // index): the SQL executor passes its accounted pool, so resident indexes count
  // against the GPU memory budget and their per-batch scratch is reused, not
  // cudaMalloc'ed. Null: plain cudaMalloc.
  ::raydb::gpu::DeviceMemory* memory = nullptr;
};

bool gpu_indexes_available(std::string* why);
std::unique_ptr<KeyIndex> make_gpu_sorted_array(std::span<const uint64_t> keys, std::span<const int64_t> values,
                                                const GpuIndexOptions& options);
std::unique_ptr<KeyIndex> make_gpu_hash(std::span<const uint64_t> keys, std::span<const int64_t> values,
                                        const GpuIndexOptions& options);
// tracer: a GPU tracer (make_optix_tracer) that outlives the index.
std::unique_ptr<KeyIndex> make_gpu_rt(rt::Tracer& tracer, std::span<const uint64_t> keys,
                                      std::span<const int64_t> values, const GpuIndexOptions& options);

}  // namespace raydb::access
