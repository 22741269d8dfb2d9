#pragma once
// A compiled program bound to the device: its instructions, the device columns it
// reads (DOUBLE columns as stored, the rest from the column cache) and its lookup
// tables uploaded on the query's stream.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "exec/cuda/general/device_program.h"
#include "exec/cuda/general/expression_compiler.h"
#include "gpu/device_buffer.h"

namespace raydb::exec::cuda::general {

// Drops the DOUBLE columns and shared lookup tables kept on the device (as the column
// cache does for the rest).
void clear_double_columns();

struct BoundProgram {
  const CompiledProgram* src = nullptr;
  DevProgram dev;
  gpu::DeviceBuffer ins, cols, lookups;
  std::vector<gpu::DeviceBuffer> tables;
  std::vector<std::shared_ptr<const void>> shared_tables;  // device copies of shared lookups
  std::vector<ProgColumn> host_cols;    // what dev.cols holds, on the host (scan terms bind from it)
  std::vector<ProgLookup> host_lookups;  // likewise dev.lookups
};

// Adds the bytes of the columns it reads to bytes_read.
std::unique_ptr<BoundProgram> bind(const CompiledProgram& p, cudaStream_t s, uint64_t& bytes_read);

}  // namespace raydb::exec::cuda::general
