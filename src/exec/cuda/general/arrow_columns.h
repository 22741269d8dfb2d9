#pragma once
// The general path's final columns (int128 values + NULL bytes, tuples.h) in Arrow's
// layout on the device, for QueryOptions::keep_result_on_device: the values narrowed to
// the width of the column's Arrow format (int32 for INTEGER and DATE, int64 for BIGINT
// and TIMESTAMP, the double's bits for DOUBLE, int128 for DECIMAL and HUGEINT, a
// bitmap for BOOLEAN) and a validity bitmap, in memory the result owns.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "exec/core/device_result_columns.h"
#include "exec/cuda/general/general_plan.h"
#include "exec/cuda/general/tuples.h"

namespace raydb::exec::cuda::general {

// Whether a column computed by `p` has a device Arrow layout here (not VARCHAR, not NULL).
bool has_device_arrow_layout(const CompiledProgram& p);

// The first n rows of `cols` (one per program of `programs`, all with a layout) in
// Arrow's layout, written on stream s; its event is recorded after the kernels.
std::shared_ptr<const DeviceResultColumns> arrow_columns(const std::vector<const CompiledProgram*>& programs,
                                                         const std::vector<const Column128*>& cols, uint64_t n,
                                                         cudaStream_t s);

}  // namespace raydb::exec::cuda::general
