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
#include "rt/tracer.h"

namespace raydb::access {

struct GpuIndexOptions {
  bool sorted_probes = false;  // sort each batch by lower bound on the device first
  // rt-gpu: units per bucket. 4096 by measurement on the H200 (2^26 keys, 2^27 lookups;
  // 256 / 1024 / 4096: 50.8 / 39.4 / 36.1 ms unsorted points, docs/benchmarks/rt-index-h200.md).
  uint32_t bucket_size = 4096;
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
