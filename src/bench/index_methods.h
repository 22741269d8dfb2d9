#pragma once
// The methods `raydb bench index` measures, by name: rt, rx, cgrx, rt-box, rt-bucket
// (host-built RT indexes on a tracer), sa, hash (CPU baselines), and the
// GPU-resident rt-gpu (RT index built on the device, OptiX), sa-gpu, hash-gpu.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "access/rt_index/key_index.h"
#include "plan/physical/cost_model.h"
#include "rt/tracer.h"

namespace raydb::bench {

bool on_gpu(const std::string& method);        // a GPU-resident index (-gpu)
bool uses_buckets(const std::string& method);  // takes --bucket
bool traced(const std::string& method);        // a host-built RT index (times from the tracer)
// The methods the planner can choose: the index kinds of CREATE INDEX with their
// default options, on the CPU and on the GPU (what `raydb calibrate` measures).
bool plannable(const std::string& method);
int default_bucket(const std::string& method);
// Probe order: 0 unsorted, 1 the index sorts the batch, 2 the batch arrives sorted.
const char* probes_name(int sorted_probes);
// The index kind of the SQL planner each method implements.
plan::IndexKind kind_of(const std::string& method);

// Builds `method` over keys and values; kInvalidInput for an unknown method.
std::unique_ptr<access::KeyIndex> make_index(const std::string& method, rt::Tracer* tracer,
                                             std::span<const uint64_t> keys, std::span<const int64_t> values,
                                             bool sorted_probes, int partitions, int bucket);

}  // namespace raydb::bench
