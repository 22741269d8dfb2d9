#pragma once
// SQL indexes on the CUDA backend: the GPU-resident twins (access/gpu, access/rt_scan)
// of the catalog's index definitions, built once per process on first use from the
// column(s) and kept on the device (like the column cache) in the accounted memory
// pool, so they count against the GPU memory budget. Kinds: USING RT -> rt-gpu
// (interval buckets traversed by OptiX), SORTED -> sa-gpu, HASH -> hash-gpu, RTSCAN ->
// the GPU-resident RT scan index (rt on OptiX where it runs, gpu-scan, gpu-sieve). No CUDA in this
// header; without the CUDA backend (or a device, or OptiX for RT) supported() says
// why and the CUDA backend uses no index of that kind.
#include <cstdint>
#include <memory>
#include <string>

#include "exec/index/built_index.h"
#include "exec/index/built_scan_index.h"
#include "storage/index_definition.h"

namespace raydb::rt {
class Tracer;
}

namespace raydb::exec::cuda {

// Whether GPU indexes of `kind` can be built here; else `why` (one line).
bool gpu_index_supported(plan::IndexKind kind, std::string* why);

// The GPU-resident index for `def` over `table` (the table object the query reads),
// built when needed ("index NAME: built N keys on the GPU (rt-gpu:cg16384) in X ms ..."
// on stderr) and kept while the table object is alive.
std::shared_ptr<const BuiltIndex> gpu_index(const IndexDefinition& def, const TablePtr& table);

// The GPU-resident RT scan index for `def` (kind kRtScan), built when needed (a line on
// stderr, as above) and kept while the table object is alive.
std::shared_ptr<const BuiltScanIndex> gpu_scan_index(const IndexDefinition& def, const TablePtr& table);

// The OptiX tracer RT views (exec/index/view_path) run on for the CUDA backend, on the
// accounted memory pool (their BVHs and arrays count against the budget); made on
// first use and kept for the process, like the indexes' tracer. Throws
// kNotImplemented where OptiX is not built.
rt::Tracer& gpu_view_tracer();

// Frees every GPU index (tests; the next query builds again).
void clear_gpu_indexes();
// clear_gpu_indexes() and the tracer they were built on; only while none is in use.
void release_gpu_indexes();

// Index steps the CUDA backend ran since the process started (tests and benchmarks
// check that a plan really used the GPU index).
struct GpuIndexUse {
  uint64_t scans = 0;    // index scans
  uint64_t joins = 0;    // index joins
  uint64_t lookups = 0;  // lookups issued by them (points, IN items, ranges, probes)
};
GpuIndexUse gpu_index_use();

}  // namespace raydb::exec::cuda
