#pragma once
// The index access paths of a physical plan (plan/physical/access_path.h) on the
// general CUDA path, over GPU-resident indexes (access/gpu, built by
// exec/cuda/gpu_index_catalog): lookups, candidates and join pairs stay on the device.
//   index scan: the predicate's lookups (a handful: points, IN items, ranges) go up
//     once; one count pass of the index (count + run per lookup), a prefix sum, the
//     runs expanded into row ids and sorted ascending, the scan's order. The caller
//     applies every filter of the table to them, so the result is the scan's.
//   index join: the probe keys (already evaluated on the device) are encoded into
//     point lookups, one count pass (rt-gpu: one ray per probe), a prefix sum, and
//     the runs expanded into (probe position, build row) pairs in probe order, build
//     rows ascending within a probe: the general join's pairs, duplicates included.
//     The caller applies the build table's filters to them.
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/device_buffer.h"
#include "exec/cuda/general/expression_compiler.h"
#include "plan/physical/physical_plan.h"

namespace raydb::exec::cuda::general {

// Whether `plan` has an index scan or an index join (such plans run on the general path).
bool has_index_paths(const plan::PhysicalPlan& plan);

struct DeviceRowIds {
  gpu::DeviceBuffer rows;  // ascending row ids of the table
  uint64_t n = 0;
};
DeviceRowIds index_scan_rows(const plan::IndexScan& scan, const plan::LogicalQuery& q, cudaStream_t s);
// Whether `filter` is the index scan's own predicate, which its candidates satisfy
// exactly (the lookups are the predicate's stored-value ranges, ColumnPredicate's exact
// form, and every index answers them exactly), so the scan need not run it again.
bool answered_by_index(const CompiledProgram& filter, const plan::IndexScan& scan);

struct DeviceJoinPairs {
  gpu::DeviceBuffer src;   // probe position of each pair
  gpu::DeviceBuffer rows;  // build row id of each pair
  uint64_t n = 0;
};
// probe_values / probe_nulls: the probe key over the current rows (n of them), in the
// build key column's stored domain (as the general join compares them).
DeviceJoinPairs index_join_pairs(const plan::IndexJoin& join, const __int128* probe_values,
                                 const uint8_t* probe_nulls, uint64_t n, cudaStream_t s);

}  // namespace raydb::exec::cuda::general
