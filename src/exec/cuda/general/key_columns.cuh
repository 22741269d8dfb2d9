#pragma once
// Device-side equality of join key tuples (KeyColumns, general_kernels.h): every key
// column compared in all 128 bits. Callers have excluded NULL keys already (they never
// match, as in the CPU's join).
#include "exec/cuda/general/general_kernels.h"

namespace raydb::exec::cuda::general {

__device__ __forceinline__ bool keys_equal(const KeyColumns& a, uint64_t i, const KeyColumns& b, uint64_t j) {
  for (int c = 0; c < a.width; c++)
    if (a.values[c][i] != b.values[c][j]) return false;
  return true;
}

}  // namespace raydb::exec::cuda::general
